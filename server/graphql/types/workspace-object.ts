import { withFileNames } from '../../domain/file-names.ts';
import { listObjectVersions } from '../../services/objects/object-versions.ts';
import { builder } from '../builder.ts';
import { ObjectKindEnum } from '../enums/object-kind.ts';
import { loadAll } from '../loaders.ts';
import { publicJson } from '../public-ids.ts';
import { offsetConnection } from '../pagination.ts';
import { ObjectAuthorRef, ObjectDerivationRef, ObjectVersionRef, TaskRef, WorkspaceObjectRef, WorkspaceRef } from '../refs.ts';

// The live-feed resolvers take these from here.
export { ObjectChangeKindEnum } from '../enums/object-change-kind.ts';
export { ObjectVersionRef, WorkspaceObjectRef };

builder.node(WorkspaceObjectRef, {
  description: 'A creative result in the shared workspace, with a stable id and an immutable version history.',
  id: { resolve: (o) => o.id },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => ctx.loaders.object.load(id))),
  fields: (t) => ({
    kind: t.field({ type: ObjectKindEnum, description: 'What it is; decides the shape of its content.', resolve: (o) => o.kind }),
    title: t.exposeString('name', { description: 'What it is called (the current version\'s title).' }),
    name: t.exposeString('name', { description: 'Its title, under its former name.', deprecationReason: 'Use title.' }),
    currentVersion: t.exposeInt('currentVersion', { description: 'The number of its newest version; versions are 1..currentVersion.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When its newest version was written.' }),
    deletedAt: t.expose('deletedAt', { type: 'DateTime', nullable: true, description: 'Set once a person approved the deletion; the object is read-only then.' }),
    workspace: t.field({ type: WorkspaceRef, description: 'The workspace it belongs to.', resolve: (o, _a, ctx) => ctx.loaders.workspace.load(o.workspaceId).then((w) => w!) }),
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
      description: 'Its newest version.',
      resolve: async (o, _a, ctx) => (await ctx.loaders.objectVersion.load({ objectId: o.id, version: o.currentVersion }))!,
    }),
    content: t.field({
      type: 'JSON',
      description: "The current version's content (see ObjectVersion.content); a file by its name.",
      resolve: async (o, _a, ctx) => publicJson(withFileNames((await ctx.loaders.objectVersion.load({ objectId: o.id, version: o.currentVersion }))!.content)),
    }),
    version: t.field({
      type: ObjectVersionRef,
      nullable: true,
      description: 'Version n (null when there is none).',
      args: { n: t.arg.int({ required: true, description: 'The version number (1..currentVersion).' }) },
      resolve: (o, args, ctx) => ctx.loaders.objectVersion.load({ objectId: o.id, version: args.n }),
    }),
    versions: t.connection({
      type: ObjectVersionRef,
      description: 'The history, newest first.',
      resolve: (o, args, ctx) =>
        offsetConnection({ args, defaultSize: 20, maxSize: 100 }, ({ limit, offset }) => listObjectVersions(ctx.deps, ctx.viewer, { objectId: o.id, limit, offset })),
    }),
    derivedFrom: t.field({
      type: [ObjectDerivationRef],
      description: 'What its versions were made from (newest version first): the objects, at the versions used, with the task and step that made it. Empty for what a person made by hand.',
      resolve: (o, _a, ctx) => ctx.loaders.derivedFrom.load(o.id),
    }),
    dependents: t.field({
      type: [ObjectDerivationRef],
      description: 'What was made from it (oldest first): when it changes, these are the results made from an older state of it.',
      resolve: (o, _a, ctx) => ctx.loaders.dependents.load(o.id),
    }),
    referencedBy: t.field({
      type: [TaskRef],
      description: 'Tasks that reference this object (no task holds a copy).',
      resolve: async (o, _a, ctx) => loadAll(ctx.loaders.task, await ctx.loaders.taskIdsByObject.load(o.id)),
    }),
  }),
});
