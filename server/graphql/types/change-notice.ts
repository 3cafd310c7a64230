import { builder } from '../builder.ts';
import { ActorKindEnum } from '../enums/actor-kind.ts';
import { ChangeNoticeRef, WorkspaceObjectRef } from '../refs.ts';

builder.objectType(ChangeNoticeRef, {
  description: "Someone else changed an object the task has seen. It reaches the task's next step once (consumedAt).",
  fields: (t) => ({
    id: t.exposeID('id'),
    object: t.field({ type: WorkspaceObjectRef, nullable: true, resolve: (n, _a, ctx) => ctx.loaders.object.load(n.objectId) }),
    fromVersion: t.exposeInt('fromVersion'),
    toVersion: t.exposeInt('toVersion'),
    summary: t.exposeString('summary'),
    changes: t.field({ type: 'JSON', resolve: (n) => n.changes }),
    authorKind: t.field({ type: ActorKindEnum, resolve: (n) => n.authorKind }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    consumedAt: t.expose('consumedAt', { type: 'DateTime', nullable: true }),
    consumedStep: t.exposeInt('consumedStep', { nullable: true }),
  }),
});
