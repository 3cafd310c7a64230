import { builder } from '../builder.ts';
import { RouteCandidateRef, TaskRef } from '../refs.ts';

builder.objectType(RouteCandidateRef, {
  description: 'A task the router weighed for a message.',
  fields: (t) => ({
    title: t.exposeString('title', { description: "The task's title when it was weighed." }),
    score: t.exposeFloat('score', { description: 'How well it matched, 0..1.' }),
    task: t.field({ type: TaskRef, nullable: true, description: 'The task.', resolve: (c, _a, ctx) => ctx.loaders.task.load(c.taskId) }),
  }),
});
