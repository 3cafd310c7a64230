// Shared workspace mutations: thin resolvers over server/services/objects. A refused write (stale
// base, ambiguous find, conflicting node, deleted object) is a typed error whose extensions carry
// the details (code, reason, currentVersion, failures/conflicts); nothing is written.
import { requestDeleteObject } from '../../services/objects/delete-object.ts';
import { createObject, editDocument, editFlow, updateObject } from '../../services/objects/write-object.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { CreateObjectInput } from '../inputs/create-object-input.ts';
import { EditDocumentInput } from '../inputs/edit-document-input.ts';
import { EditFlowInput } from '../inputs/edit-flow-input.ts';
import { UpdateObjectInput } from '../inputs/update-object-input.ts';
import { DeleteObjectPayload } from '../payloads/delete-object-payload.ts';
import { ObjectWritePayload, type WriteResult } from '../payloads/object-write-payload.ts';

const objectId = (id: unknown, arg: string) => parseGlobalId(String(id), 'WorkspaceObject', arg);
const wrap = async (p: Promise<WriteResult>): Promise<{ r: WriteResult }> => ({ r: await p });

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
