import { builder } from '../builder.ts';
import { ObjectAuthorRef, ObjectFileRef, ObjectVersionRef, ObjectVersionWithheldRef, type ObjectFile } from '../refs.ts';

type ObjectVersion = typeof ObjectVersionRef.$inferType;

const content = (v: ObjectVersion) => (v.content ?? {}) as Record<string, unknown>;

builder.objectType(ObjectVersionRef, {
  description: 'One immutable version of an object.',
  fields: (t) => ({
    version: t.exposeInt('version'),
    name: t.exposeString('name'),
    content: t.field({ type: 'JSON', description: 'By kind: document { markdown }, flow { nodes, edges }, collection { items }, media { file, provenance }.', resolve: content }),
    markdown: t.string({ nullable: true, description: 'Documents only.', resolve: (v) => (typeof content(v).markdown === 'string' ? (content(v).markdown as string) : null) }),
    file: t.field({ type: ObjectFileRef, nullable: true, description: 'Media only.', resolve: (v) => (content(v).file as ObjectFile | undefined) ?? null }),
    provenance: t.field({ type: 'JSON', nullable: true, resolve: (v) => content(v).provenance ?? null }),
    nodeVersions: t.field({ type: 'JSON', nullable: true, description: 'Flows: node id → version in which the node last changed.', resolve: (v) => v.nodeVersions ?? null }),
    summary: t.exposeString('summary', { description: 'What changed from the previous version, in words.' }),
    changes: t.field({ type: 'JSON', resolve: (v) => v.changes }),
    author: t.field({ type: ObjectAuthorRef, resolve: (v) => ({ kind: v.authorKind, userId: v.authorUserId, taskId: v.authorTaskId }) }),
    withheld: t.field({
      type: ObjectVersionWithheldRef,
      nullable: true,
      description: 'Set when this version is withheld (it contained a value its owner asked to forget): name, content and summary are then not its own.',
      resolve: (v) => v.withheld ?? null,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});
