// Shared workspace mutations: thin resolvers over server/services/objects. A refused write (stale
// base, ambiguous find, conflicting node, deleted object) is a typed error whose extensions carry
// the details (code, reason, currentVersion, failures/conflicts); nothing is written.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { requestDeleteObject } from '../../services/objects/delete-object.ts';
import type { WriteResult } from '../../store/objects/store.ts';
import { createObject, editDocument, editFlow, updateObject } from '../../services/objects/write-object.ts';
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { parseGlobalId } from '../ids.ts';
import { ObjectKindEnum, ObjectVersionRef, WorkspaceObjectRef } from '../types/workspace-object.ts';

type Payload = { r: WriteResult };
const ObjectWritePayload = builder.objectRef<Payload>('ObjectWritePayload').implement({
  fields: (t) => ({
    object: t.field({
      type: WorkspaceObjectRef,
      resolve: async (p, _a, ctx) => (await ctx.deps.prisma.workspaceObject.findUnique({ where: { id: p.r.object.id } }))!,
    }),
    version: t.field({
      type: ObjectVersionRef,
      description: 'The version this write produced (or, for a replayed idempotency key, produced earlier).',
      resolve: async (p, _a, ctx) =>
        (await ctx.deps.prisma.objectVersion.findUnique({ where: { objectId_version: { objectId: p.r.object.id, version: p.r.version } } }))!,
    }),
    replayed: t.boolean({ resolve: (p) => p.r.replayed }),
    summary: t.string({ resolve: (p) => p.r.summary }),
    changedByOthers: t.stringList({
      description: 'Flow edits: nodes others changed since your base version (kept; your edit applied on top).',
      resolve: (p) => p.r.changedByOthers ?? [],
    }),
  }),
});

const objectId = (id: unknown, arg: string) => parseGlobalId(String(id), 'WorkspaceObject', arg);
const wrap = async (p: Promise<WriteResult>): Promise<Payload> => ({ r: await p });

const CreateObjectInput = builder.inputType('CreateObjectInput', {
  fields: (t) => ({
    workspaceId: t.id({ required: true }),
    kind: t.field({ type: ObjectKindEnum, required: true }),
    name: t.string({ required: true }),
    content: t.field({ type: 'JSON', required: true, description: 'By kind: { markdown } | { nodes, edges } | { items } | { file, provenance }.' }),
    idempotencyKey: t.string({ required: false, description: 'Retrying with the same key returns the same object.' }),
  }),
});
const UpdateObjectInput = builder.inputType('UpdateObjectInput', {
  fields: (t) => ({
    objectId: t.id({ required: true }),
    baseVersion: t.int({ required: true, description: 'The version you edited; a stale one is CONFLICT (extensions.currentVersion).' }),
    content: t.field({ type: 'JSON', required: true }),
    name: t.string({ required: false }),
    idempotencyKey: t.string({ required: false }),
  }),
});
const FindReplaceInput = builder.inputType('FindReplaceInput', {
  fields: (t) => ({ find: t.string({ required: true }), replace: t.string({ required: true }) }),
});
const EditDocumentInput = builder.inputType('EditDocumentInput', {
  fields: (t) => ({
    objectId: t.id({ required: true }),
    baseVersion: t.int({ required: false }),
    edits: t.field({ type: [FindReplaceInput], required: true, description: 'Each find must match exactly once in the current version.' }),
    idempotencyKey: t.string({ required: false }),
  }),
});
const EditFlowInput = builder.inputType('EditFlowInput', {
  fields: (t) => ({
    objectId: t.id({ required: true }),
    baseVersion: t.int({ required: false, description: 'Default base version for ops that carry none.' }),
    ops: t.field({
      type: ['JSON'],
      required: true,
      description:
        '{ op: "add_node", node } | { op: "update_node", nodeId, baseVersion?, kind?, params?, inputs? } | { op: "remove_node", nodeId, baseVersion? } | { op: "add_edge" | "remove_edge", edge: { from, to, port? } }',
    }),
    idempotencyKey: t.string({ required: false }),
  }),
});

const DeleteObjectPayload = builder
  .objectRef<{ approval: { id: string; status: string; title: string }; object: { id: string } }>('DeleteObjectPayload')
  .implement({
    description: 'Deletion is irreversible, so it waits for a person to approve it; the object is deleted when the approval is approved.',
    fields: (t) => ({
      approvalId: t.id({ resolve: (p) => encodeGlobalID('Approval', p.approval.id) }),
      approvalStatus: t.string({ resolve: (p) => p.approval.status }),
      title: t.string({ resolve: (p) => p.approval.title }),
      object: t.field({
        type: WorkspaceObjectRef,
        resolve: async (p, _a, ctx: Context) => (await ctx.deps.prisma.workspaceObject.findUnique({ where: { id: p.object.id } }))!,
      }),
    }),
  });

builder.mutationFields((t) => ({
  createObject: t.field({
    type: ObjectWritePayload,
    args: { input: t.arg({ type: CreateObjectInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      wrap(
        createObject(ctx.deps, ctx.viewer, {
          workspaceId: parseGlobalId(String(input.workspaceId), 'Workspace', 'input.workspaceId'),
          kind: input.kind,
          name: input.name,
          content: input.content,
          idempotencyKey: input.idempotencyKey ?? null,
        }),
      ),
  }),
  updateObject: t.field({
    type: ObjectWritePayload,
    description: 'Replace the whole content, based on baseVersion (stale: CONFLICT, nothing written).',
    args: { input: t.arg({ type: UpdateObjectInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      wrap(
        updateObject(ctx.deps, ctx.viewer, {
          objectId: objectId(input.objectId, 'input.objectId'),
          baseVersion: input.baseVersion,
          content: input.content,
          name: input.name ?? null,
          idempotencyKey: input.idempotencyKey ?? null,
        }),
      ),
  }),
  editDocument: t.field({
    type: ObjectWritePayload,
    description: 'Exact find/replace on a document; all or nothing.',
    args: { input: t.arg({ type: EditDocumentInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      wrap(
        editDocument(ctx.deps, ctx.viewer, {
          objectId: objectId(input.objectId, 'input.objectId'),
          baseVersion: input.baseVersion ?? null,
          edits: input.edits.map((e) => ({ find: e.find, replace: e.replace })),
          idempotencyKey: input.idempotencyKey ?? null,
        }),
      ),
  }),
  editFlow: t.field({
    type: ObjectWritePayload,
    description: 'Node operations on a flow; a conflict only where the same node changed since its base version.',
    args: { input: t.arg({ type: EditFlowInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      wrap(
        editFlow(ctx.deps, ctx.viewer, {
          objectId: objectId(input.objectId, 'input.objectId'),
          baseVersion: input.baseVersion ?? null,
          ops: input.ops as never,
          idempotencyKey: input.idempotencyKey ?? null,
        }),
      ),
  }),
  deleteObject: t.field({
    type: DeleteObjectPayload,
    description: 'Ask to delete an object. Irreversible, so a person must approve; returns the pending approval.',
    args: { objectId: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => requestDeleteObject(ctx.deps, ctx.viewer, objectId(args.objectId, 'objectId')),
  }),
}));
