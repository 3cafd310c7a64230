import { listObjectVersions } from '../../services/objects/object-versions.ts';
import { builder } from '../builder.ts';
import { ObjectKindEnum } from '../enums/object-kind.ts';
import { loadAll } from '../loaders.ts';
import { offsetConnection } from '../pagination.ts';
import { ObjectAuthorRef, ObjectVersionRef, TaskRef, WorkspaceObjectRef, WorkspaceRef } from '../refs.ts';

// The live-feed resolvers take these from here.
export { ObjectChangeKindEnum } from '../enums/object-change-kind.ts';
export { ObjectVersionRef, WorkspaceObjectRef };

builder.node(WorkspaceObjectRef, {
  description: 'A creative result in the shared workspace, with a stable id and an immutable version history.',
  id: { resolve: (o) => o.id },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => ctx.loaders.object.load(id))),
  fields: (t) => ({
    kind: t.field({ type: ObjectKindEnum, resolve: (o) => o.kind }),
    name: t.exposeString('name'),
    currentVersion: t.exposeInt('currentVersion'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    deletedAt: t.expose('deletedAt', { type: 'DateTime', nullable: true, description: 'Set once a person approved the deletion; the object is read-only then.' }),
    workspace: t.field({ type: WorkspaceRef, resolve: (o, _a, ctx) => ctx.loaders.workspace.load(o.workspaceId).then((w) => w!) }),
    author: t.field({
      type: ObjectAuthorRef,
      description: 'Who created the object.',
      resolve: (o) => ({
        kind: o.createdByKind,
        userId: o.createdByKind === 'USER' ? o.createdById : null,
        taskId: o.createdByKind !== 'USER' ? o.createdById : null,
      }),
    }),
    current: t.field({
      type: ObjectVersionRef,
      resolve: async (o, _a, ctx) => (await ctx.loaders.objectVersion.load({ objectId: o.id, version: o.currentVersion }))!,
    }),
    content: t.field({
      type: 'JSON',
      resolve: async (o, _a, ctx) => (await ctx.loaders.objectVersion.load({ objectId: o.id, version: o.currentVersion }))!.content,
    }),
    version: t.field({
      type: ObjectVersionRef,
      nullable: true,
      args: { n: t.arg.int({ required: true }) },
      resolve: (o, args, ctx) => ctx.loaders.objectVersion.load({ objectId: o.id, version: args.n }),
    }),
    versions: t.connection({
      type: ObjectVersionRef,
      description: 'The history, newest first.',
      resolve: (o, args, ctx) =>
        offsetConnection({ args, defaultSize: 20, maxSize: 100 }, ({ limit, offset }) => listObjectVersions(ctx.deps, ctx.viewer, { objectId: o.id, limit, offset })),
    }),
    referencedBy: t.field({
      type: [TaskRef],
      description: 'Tasks that reference this object (no task holds a copy).',
      resolve: async (o, _a, ctx) => loadAll(ctx.loaders.task, await ctx.loaders.taskIdsByObject.load(o.id)),
    }),
  }),
});
