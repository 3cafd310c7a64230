import { builder } from '../builder.ts';
import { CardOptionRef, TaskRef } from '../refs.ts';

builder.objectType(CardOptionRef, {
  fields: (t) => ({
    id: t.exposeString('id'),
    label: t.exposeString('label'),
    action: t.exposeString('action'),
    task: t.field({ type: TaskRef, nullable: true, resolve: (o, _a, ctx) => (o.taskId ? ctx.loaders.task.load(o.taskId) : null) }),
  }),
});
