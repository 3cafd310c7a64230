import { builder } from '../builder.ts';
import { ToolCallRef } from '../refs.ts';

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
