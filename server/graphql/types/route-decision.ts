import { builder } from '../builder.ts';
import { RouteMethodEnum } from '../enums/route-method.ts';
import { RouteOutcomeEnum } from '../enums/route-outcome.ts';
import { RouteCandidateRef, RouteDecisionRef, TaskRef, type RouteCandidate } from '../refs.ts';

builder.objectType(RouteDecisionRef, {
  description: 'Where a message went and why. A re-route keeps the old decision (superseded) on record.',
  fields: (t) => ({
    outcome: t.field({ type: RouteOutcomeEnum, resolve: (d) => d.outcome }),
    method: t.field({ type: RouteMethodEnum, resolve: (d) => d.method }),
    reason: t.exposeString('reason'),
    indexSize: t.exposeInt('indexSize', { description: 'How many task-index entries the router saw (bounded).' }),
    task: t.field({ type: TaskRef, nullable: true, resolve: (d, _a, ctx) => (d.taskId ? ctx.loaders.task.load(d.taskId) : null) }),
    candidates: t.field({ type: [RouteCandidateRef], resolve: (d) => d.candidates as RouteCandidate[] }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    superseded: t.boolean({ resolve: (d) => d.supersededAt !== null }),
  }),
});
