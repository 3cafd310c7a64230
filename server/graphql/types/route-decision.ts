import { builder } from '../builder.ts';
import { publicText } from '../public-ids.ts';
import { RouteMethodEnum } from '../enums/route-method.ts';
import { RouteOutcomeEnum } from '../enums/route-outcome.ts';
import { RouteCandidateRef, RouteDecisionRef, TaskRef, type RouteCandidate } from '../refs.ts';

builder.objectType(RouteDecisionRef, {
  description: 'Where a message went and why. A re-route keeps the old decision (superseded) on record.',
  fields: (t) => ({
    outcome: t.field({ type: RouteOutcomeEnum, description: 'Where the message went.', resolve: (d) => d.outcome }),
    method: t.field({ type: RouteMethodEnum, description: 'How it was decided.', resolve: (d) => d.method }),
    reason: t.string({ description: 'Why, in words.', resolve: (d) => publicText(d.reason) }),
    indexSize: t.exposeInt('indexSize', { description: 'How many task-index entries the router saw (bounded).' }),
    task: t.field({ type: TaskRef, nullable: true, description: 'The task it went to (null for ANSWER and CLARIFY).', resolve: (d, _a, ctx) => (d.taskId ? ctx.loaders.task.load(d.taskId) : null) }),
    candidates: t.field({ type: [RouteCandidateRef], description: 'The tasks weighed, best first.', resolve: (d) => d.candidates as RouteCandidate[] }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was decided.' }),
    superseded: t.boolean({ description: 'True once a re-route or an answered question replaced it (kept on record).', resolve: (d) => d.supersededAt !== null }),
  }),
});
