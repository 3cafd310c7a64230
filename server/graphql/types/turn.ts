import { builder } from '../builder.ts';
import { StepRef, TurnRef } from '../refs.ts';

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
