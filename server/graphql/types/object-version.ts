import { withFileNames } from '../../domain/file-names.ts';
import { builder } from '../builder.ts';
import { publicJson, publicText } from '../public-ids.ts';
import { ObjectAuthorRef, ObjectFileRef, ObjectVersionRef, ObjectVersionWithheldRef, type ObjectFile } from '../refs.ts';

type ObjectVersion = typeof ObjectVersionRef.$inferType;

const content = (v: ObjectVersion) => (v.content ?? {}) as Record<string, unknown>;
/** As the API shows it: stored file paths reduced to file names (domain/file-names.ts). */
const publicContent = (v: ObjectVersion) => withFileNames(content(v));
/** …and the rows it names (a collection's items, a provenance's job and task) by their global ids. */
const clientContent = (v: ObjectVersion) => publicJson(publicContent(v));

builder.objectType(ObjectVersionRef, {
  description: 'One immutable version of an object.',
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'Its number: 1 for the first, gap-free.' }),
    title: t.exposeString('name', { description: "The object's title in this version." }),
    name: t.exposeString('name', { description: "The object's title in this version, under its former name.", deprecationReason: 'Use title.' }),
    content: t.field({ type: 'JSON', description: 'By kind: document { markdown }, flow { nodes, edges }, collection { items }, media { file, provenance } (a file by its name; fetch it through `file.url`). Objects it names by their global ids.', resolve: clientContent }),
    markdown: t.string({ nullable: true, description: 'Documents only.', resolve: (v) => (typeof content(v).markdown === 'string' ? (content(v).markdown as string) : null) }),
    file: t.field({
      type: ObjectFileRef,
      nullable: true,
      description: 'Media only.',
      resolve: (v) => {
        const file = content(v).file as Omit<ObjectFile, 'workspaceId'> | undefined;
        return file ? { ...file, workspaceId: v.workspaceId } : null;
      },
    }),
    provenance: t.field({
      type: 'JSON',
      nullable: true,
      description: 'Media only: where it came from ({ prompt, provider, jobId, taskId } of a generation, or what an upload said); files by name.',
      resolve: (v) => clientContent(v).provenance ?? null,
    }),
    nodeVersions: t.field({ type: 'JSON', nullable: true, description: 'Flows: node id → version in which the node last changed.', resolve: (v) => v.nodeVersions ?? null }),
    summary: t.string({ description: 'What changed from the previous version, in words.', resolve: (v) => publicText(v.summary) }),
    changes: t.field({ type: 'JSON', description: 'What changed, as data: { name, headings } of a document, { nodes, edges } of a flow, { items } of a collection, { file } of media (each set when that part changed).', resolve: (v) => publicJson(v.changes) }),
    author: t.field({ type: ObjectAuthorRef, description: 'Who wrote this version.', resolve: (v) => ({ kind: v.authorKind, userId: v.authorUserId, taskId: v.authorTaskId }) }),
    withheld: t.field({
      type: ObjectVersionWithheldRef,
      nullable: true,
      description: 'Set when this version is withheld (it contained a value its owner asked to forget): name, content and summary are then not its own.',
      resolve: (v) => v.withheld ?? null,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was written.' }),
  }),
});
