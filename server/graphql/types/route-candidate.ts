import { builder } from '../builder.ts';
import { RouteCandidateRef, TaskRef } from '../refs.ts';

builder.objectType(RouteCandidateRef, {
  fields: (t) => ({
    title: t.exposeString('title'),
    score: t.exposeFloat('score'),
    task: t.field({ type: TaskRef, nullable: true, resolve: (c, _a, ctx) => ctx.loaders.task.load(c.taskId) }),
  }),
});
