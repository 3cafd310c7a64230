import { builder } from '../builder.ts';
import { ObjectDerivationRef, TaskRef, WorkspaceObjectRef } from '../refs.ts';

builder.objectType(ObjectDerivationRef, {
  description:
    'One input of an object version: the object (at a version) it was made from — the reference it was generated from, or a result of a step its step comes after — with the task and the checklist step that made it.',
  fields: (t) => ({
    source: t.field({
      type: WorkspaceObjectRef,
      nullable: true,
      description: 'The object it was made from (null when you cannot see it any more).',
      resolve: (d, _a, ctx) => ctx.loaders.object.load(d.sourceId),
    }),
    sourceVersion: t.exposeInt('sourceVersion', { description: 'The version of the source that was used: a newer one means this result was made from an older state.' }),
    object: t.field({
      type: WorkspaceObjectRef,
      nullable: true,
      description: 'The object that was made.',
      resolve: (d, _a, ctx) => ctx.loaders.object.load(d.objectId),
    }),
    objectVersion: t.exposeInt('objectVersion', { description: 'The version of the made object this input belongs to.' }),
    step: t.exposeString('stepId', { nullable: true, description: "The checklist step it was made for (ChecklistItem.id in the task's checklist)." }),
    task: t.field({ type: TaskRef, nullable: true, description: 'The task that made it.', resolve: (d, _a, ctx) => (d.taskId ? ctx.loaders.task.load(d.taskId) : null) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was recorded (when the result was made).' }),
  }),
});
