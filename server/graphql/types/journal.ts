import type { InboxItem, Step, ToolCall } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';
import type { TurnWithSteps } from '../loaders.ts';

export type { TurnWithSteps };
type StepWithCalls = Step & { toolCalls: ToolCall[] };

const ToolCallRef = builder.objectRef<ToolCall>('ToolCall');
builder.objectType(ToolCallRef, {
  description: 'A tool call in the execution journal. Its id `turn:step:call` is stable and is its idempotency key.',
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    status: t.exposeString('status', { description: 'PENDING, STARTED, DONE, FAILED or OUTCOME_UNKNOWN' }),
    safety: t.exposeString('safety'),
    attempts: t.exposeInt('attempts'),
    input: t.field({ type: 'JSON', resolve: (c) => c.input }),
    result: t.field({ type: 'JSON', nullable: true, resolve: (c) => c.result }),
    error: t.exposeString('error', { nullable: true }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

const StepRef = builder.objectRef<StepWithCalls>('Step');
builder.objectType(StepRef, {
  description: 'One model call and the tool calls it proposed, committed before any tool ran. (The prompt itself stays private.)',
  fields: (t) => ({
    index: t.exposeInt('index'),
    message: t.string({ resolve: (s) => (s.decision as { content?: string }).content ?? '' }),
    model: t.exposeString('model'),
    usage: t.field({ type: 'JSON', nullable: true, resolve: (s) => s.usage }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    toolCalls: t.field({ type: [ToolCallRef], resolve: (s) => s.toolCalls }),
  }),
});

export const TurnRef = builder.objectRef<TurnWithSteps>('Turn');
builder.objectType(TurnRef, {
  description: 'One scheduled run of the task worker. generation counts takeovers (1 = first worker).',
  fields: (t) => ({
    number: t.exposeInt('number'),
    status: t.exposeString('status', { description: 'QUEUED, RUNNING, COMPLETED, FAILED or STOPPED' }),
    generation: t.exposeInt('generation'),
    outcome: t.exposeString('outcome', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    endedAt: t.expose('endedAt', { type: 'DateTime', nullable: true }),
    steps: t.field({ type: [StepRef], resolve: (x) => x.steps }),
  }),
});

export const InboxItemRef = builder.objectRef<InboxItem>('InboxItem');
builder.objectType(InboxItemRef, {
  description: 'A message or signal delivered to the task. Delivered is not processed: consumedStep says which step read it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.exposeString('kind'),
    signal: t.exposeString('signal', { nullable: true }),
    text: t.exposeString('text', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    consumedAt: t.expose('consumedAt', { type: 'DateTime', nullable: true }),
    consumedStep: t.exposeInt('consumedStep', { nullable: true }),
  }),
});
