// Shared workspace objects in the graph: WorkspaceObject (a Node), its immutable versions, change
// notices of tasks, and the fields other types gain (Workspace.objects, Task.objects,
// Task.changeNotices, GenerationJob.asset). Resolvers only read; visibility comes from the loaders
// (an object of another workspace loads as null).
import type { ChangeNotice, ObjectVersion, WorkspaceObject } from '../../db/generated/client.ts';
import { OBJECT_KINDS } from '../../domain/object-content.ts';
import { assetIdForJob } from '../../store/objects/create-asset.ts';
import { builder } from '../builder.ts';
import { offsetConnection } from '../pagination.ts';
import { ActorKindEnum } from './enums.ts';
import { GenerationJobRef } from './generation.ts';
import { TaskRef } from './task.ts';
import { UserRef } from './user.ts';
import { WorkspaceRef } from './workspace.ts';

export const ObjectKindEnum = builder.enumType('ObjectKind', { values: OBJECT_KINDS });
export const ObjectChangeKindEnum = builder.enumType('ObjectChangeKind', { values: ['CREATED', 'UPDATED', 'DELETED'] as const });

type Author = { kind: 'USER' | 'AGENT' | 'SYSTEM'; userId: string | null; taskId: string | null };
const ObjectAuthorRef = builder.objectRef<Author>('ObjectAuthor');
builder.objectType(ObjectAuthorRef, {
  description: 'Who made a version: a person (user) or a task (the agent, or the system on its behalf).',
  fields: (t) => ({
    kind: t.field({ type: ActorKindEnum, resolve: (a) => a.kind }),
    user: t.field({ type: UserRef, nullable: true, resolve: (a, _x, ctx) => (a.userId ? ctx.loaders.user.load(a.userId) : null) }),
    task: t.field({ type: TaskRef, nullable: true, resolve: (a, _x, ctx) => (a.taskId ? ctx.loaders.task.load(a.taskId) : null) }),
  }),
});

type File = { path: string; mime: string; bytes: number; width?: number; height?: number };
const ObjectFileRef = builder.objectRef<File>('ObjectFile');
builder.objectType(ObjectFileRef, {
  fields: (t) => ({
    path: t.exposeString('path'),
    mime: t.exposeString('mime'),
    bytes: t.exposeInt('bytes'),
    width: t.exposeInt('width', { nullable: true }),
    height: t.exposeInt('height', { nullable: true }),
  }),
});

const content = (v: ObjectVersion) => (v.content ?? {}) as Record<string, unknown>;

export const ObjectVersionRef = builder.objectRef<ObjectVersion>('ObjectVersion');
builder.objectType(ObjectVersionRef, {
  description: 'One immutable version of an object.',
  fields: (t) => ({
    version: t.exposeInt('version'),
    name: t.exposeString('name'),
    content: t.field({ type: 'JSON', description: 'By kind: document { markdown }, flow { nodes, edges }, collection { items }, media { file, provenance }.', resolve: content }),
    markdown: t.string({ nullable: true, description: 'Documents only.', resolve: (v) => (typeof content(v).markdown === 'string' ? (content(v).markdown as string) : null) }),
    file: t.field({ type: ObjectFileRef, nullable: true, description: 'Media only.', resolve: (v) => (content(v).file as File | undefined) ?? null }),
    provenance: t.field({ type: 'JSON', nullable: true, resolve: (v) => content(v).provenance ?? null }),
    nodeVersions: t.field({ type: 'JSON', nullable: true, description: 'Flows: node id → version in which the node last changed.', resolve: (v) => v.nodeVersions ?? null }),
    summary: t.exposeString('summary', { description: 'What changed from the previous version, in words.' }),
    changes: t.field({ type: 'JSON', resolve: (v) => v.changes }),
    author: t.field({ type: ObjectAuthorRef, resolve: (v) => ({ kind: v.authorKind, userId: v.authorUserId, taskId: v.authorTaskId }) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const loadVersion = (ctx: { deps: { prisma: import('../../db/client.ts').PrismaClient } }, objectId: string, version: number) =>
  ctx.deps.prisma.objectVersion.findUnique({ where: { objectId_version: { objectId, version } } });

export const WorkspaceObjectRef = builder.objectRef<WorkspaceObject>('WorkspaceObject');
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
    current: t.field({ type: ObjectVersionRef, resolve: async (o, _a, ctx) => (await loadVersion(ctx, o.id, o.currentVersion))! }),
    content: t.field({ type: 'JSON', resolve: async (o, _a, ctx) => (await loadVersion(ctx, o.id, o.currentVersion))!.content }),
    version: t.field({
      type: ObjectVersionRef,
      nullable: true,
      args: { n: t.arg.int({ required: true }) },
      resolve: (o, args, ctx) => loadVersion(ctx, o.id, args.n),
    }),
    versions: t.connection({
      type: ObjectVersionRef,
      description: 'The history, newest first.',
      resolve: (o, args, ctx) =>
        offsetConnection({ args, defaultSize: 20, maxSize: 100 }, ({ limit, offset }) =>
          ctx.deps.prisma.objectVersion.findMany({ where: { objectId: o.id }, orderBy: { version: 'desc' }, skip: offset, take: limit }),
        ),
    }),
    referencedBy: t.field({
      type: [TaskRef],
      description: 'Tasks that reference this object (no task holds a copy).',
      resolve: async (o, _a, ctx) => {
        const refs = await ctx.deps.prisma.taskObjectRef.findMany({ where: { objectId: o.id }, orderBy: { createdAt: 'asc' } });
        return (await Promise.all(refs.map((r) => ctx.loaders.task.load(r.taskId)))).filter((x) => x !== null);
      },
    }),
  }),
});

export const ChangeNoticeRef = builder.objectRef<ChangeNotice>('ChangeNotice');
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

builder.objectFields(WorkspaceRef, (t) => ({
  objects: t.connection({
    type: WorkspaceObjectRef,
    description: 'Objects of the shared workspace, most recently changed first.',
    args: { kind: t.arg({ type: ObjectKindEnum, required: false }), includeDeleted: t.arg.boolean({ required: false }) },
    resolve: (w, args, ctx) =>
      offsetConnection({ args, defaultSize: 20, maxSize: 100 }, ({ limit, offset }) =>
        ctx.deps.prisma.workspaceObject.findMany({
          where: { workspaceId: w.id, ...(args.kind ? { kind: args.kind } : {}), ...(args.includeDeleted ? {} : { deletedAt: null }) },
          orderBy: [{ updatedAt: 'desc' }, { id: 'asc' }],
          skip: offset,
          take: limit,
        }),
      ),
  }),
}));

builder.objectFields(TaskRef, (t) => ({
  objects: t.field({
    type: [WorkspaceObjectRef],
    description: 'Workspace objects the task references (read, wrote, created or generated).',
    resolve: async (task, _a, ctx) => {
      const refs = await ctx.deps.prisma.taskObjectRef.findMany({ where: { taskId: task.id }, orderBy: { createdAt: 'asc' } });
      return (await Promise.all(refs.map((r) => ctx.loaders.object.load(r.objectId)))).filter((x) => x !== null);
    },
  }),
  changeNotices: t.field({
    type: [ChangeNoticeRef],
    args: { unconsumedOnly: t.arg.boolean({ required: false }) },
    description: 'Changes by others to objects the task has seen, oldest first.',
    resolve: (task, args, ctx) =>
      ctx.deps.prisma.changeNotice.findMany({
        where: { taskId: task.id, ...(args.unconsumedOnly ? { consumedAt: null } : {}) },
        orderBy: [{ createdAt: 'asc' }, { toVersion: 'asc' }],
      }),
  }),
}));

builder.objectFields(GenerationJobRef, (t) => ({
  asset: t.field({
    type: WorkspaceObjectRef,
    nullable: true,
    description: 'The workspace object the result became (once the job succeeded).',
    resolve: (j, _a, ctx) => (j.status === 'SUCCEEDED' ? ctx.loaders.object.load(assetIdForJob(j.id)) : null),
  }),
}));
