import { forkTask } from '../../services/tasks/fork-task.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { ForkTaskInput } from '../inputs/fork-task-input.ts';
import { TaskPayload } from '../payloads/task-payload.ts';

builder.mutationFields((t) => ({
  forkTask: t.field({
    type: TaskPayload,
    description:
      'Try a different direction from a step: a new task (the fork) that shares the task\'s history up to that step — its events, and the steps before it done with the same results — and goes on from the step with the changed instruction, queued at once through the ordinary runtime with its own approvals, ledger and budget. The task itself is not changed. Task.forkedFrom and Task.forks link them.',
    args: { input: t.arg({ type: ForkTaskInput, required: true, description: 'The task, the step and what changes from there.' }) },
    resolve: async (_r, { input }, ctx) => ({
      task: await forkTask(ctx.deps, ctx.viewer, {
        taskId: parseGlobalId(String(input.taskId), 'Task', 'input.taskId'),
        atStep: input.atStep,
        edit: input.edit,
        choice: input.choice ?? undefined,
        idempotencyKey: input.idempotencyKey ?? undefined,
      }),
    }),
  }),
}));
