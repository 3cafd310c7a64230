import { builder } from '../builder.ts';
import { INPUT_POLICIES } from '../../domain/input-policy.ts';

const DESCRIPTIONS: Record<(typeof INPUT_POLICIES)[number], string> = {
  QUEUE: 'Read at the next model step: the running step finishes its calls first (the default).',
  INTERRUPT:
    'At the next safe boundary (between two tool calls, never inside one) the calls of the running step that have not started are skipped (ToolCall status SKIPPED) and the agent decides again with the message first, in the same turn. Nothing already started is undone: a running call finishes, an ordered job keeps running and its result still arrives. A TURN_INTERRUPTED event records it.',
  REJECT: 'While the task is busy (a turn queued or running, or a job still owed) the message is refused with CONFLICT (reason TASK_BUSY) and nothing is stored; otherwise it is delivered as with QUEUE.',
  ROLLBACK:
    'Like INTERRUPT, and the skipped calls are dropped from what the agent reads; the turn ends and a new turn starts with the message. Work already done stays done.',
};

export const InputPolicyEnum = builder.enumType('InputPolicy', {
  description: 'What a message (or a REVISE / ADD_CONTEXT signal) does when it arrives while its task runs. A task has one (Task.inputPolicy); a message may bring its own.',
  values: Object.fromEntries(INPUT_POLICIES.map((p) => [p, { description: DESCRIPTIONS[p] }])) as Record<(typeof INPUT_POLICIES)[number], { description: string }>,
});
