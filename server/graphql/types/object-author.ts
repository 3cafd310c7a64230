import { builder } from '../builder.ts';
import { ActorKindEnum } from '../enums/actor-kind.ts';
import { ObjectAuthorRef, TaskRef, UserRef } from '../refs.ts';

builder.objectType(ObjectAuthorRef, {
  description: 'Who made a version: a person (user) or a task (the agent, or the system on its behalf).',
  fields: (t) => ({
    kind: t.field({ type: ActorKindEnum, description: 'A person, the agent or the system.', resolve: (a) => a.kind }),
    user: t.field({ type: UserRef, nullable: true, description: 'The person, when a person wrote it.', resolve: (a, _x, ctx) => (a.userId ? ctx.loaders.user.load(a.userId) : null) }),
    task: t.field({ type: TaskRef, nullable: true, description: 'The task, when the agent (or the system for a task) wrote it.', resolve: (a, _x, ctx) => (a.taskId ? ctx.loaders.task.load(a.taskId) : null) }),
  }),
});
