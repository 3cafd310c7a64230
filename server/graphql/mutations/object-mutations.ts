// Shared workspace mutations: thin resolvers over server/services/objects. A refused write (stale
// base, ambiguous find, conflicting node, deleted object) is a typed error whose extensions carry
// the details (code, reason, currentVersion, failures/conflicts); nothing is written.
import { requestDeleteObject } from '../../services/objects/delete-object.ts';
import { createObject, editDocument, editFlow, updateObject } from '../../services/objects/write-object.ts';
import { builder } from '../builder.ts';
import { badInput } from '../../errors.ts';
import { parseGlobalId } from '../ids.ts';
import { contentIn } from '../public-ids.ts';
import { CreateObjectInput } from '../inputs/create-object-input.ts';
import { EditDocumentInput } from '../inputs/edit-document-input.ts';
import { EditFlowInput } from '../inputs/edit-flow-input.ts';
import { UpdateObjectInput } from '../inputs/update-object-input.ts';
import { DeleteObjectPayload } from '../payloads/delete-object-payload.ts';
import { ObjectWritePayload, type WriteResult } from '../payloads/object-write-payload.ts';

const objectId = (id: unknown, arg: string) => parseGlobalId(String(id), 'WorkspaceObject', arg);
const wrap = async (p: Promise<WriteResult>): Promise<{ r: WriteResult }> => ({ r: await p });

/** The title a write gives (title, or name — its former spelling); a new object needs one. */
function titleOf(input: { title?: string | null; name?: string | null }, required: boolean): string | null {
  const title = input.title ?? input.name ?? null;
  if (required && title === null) throw badInput('input.title is required: the title of the new object', { field: 'input.title' });
  return title;
}

builder.mutationFields((t) => ({
  createObject: t.field({
    type: ObjectWritePayload,
    description: 'Make an object of the shared workspace (version 1).',
    args: { input: t.arg({ type: CreateObjectInput, required: true, description: 'The object.' }) },
    resolve: (_r, { input }, ctx) =>
      wrap(
        createObject(ctx.deps, ctx.viewer, {
          workspaceId: parseGlobalId(String(input.workspaceId), 'Workspace', 'input.workspaceId'),
          kind: input.kind,
          name: titleOf(input, true)!,
          content: contentIn(input.content, 'input.content'),
          idempotencyKey: input.idempotencyKey ?? null,
        }),
      ),
  }),
  updateObject: t.field({
    type: ObjectWritePayload,
    description: 'Replace the whole content, based on baseVersion (stale: CONFLICT, nothing written).',
    args: { input: t.arg({ type: UpdateObjectInput, required: true, description: 'The object, its base version and its new content.' }) },
    resolve: (_r, { input }, ctx) =>
      wrap(
        updateObject(ctx.deps, ctx.viewer, {
          objectId: objectId(input.objectId, 'input.objectId'),
          baseVersion: input.baseVersion,
          content: contentIn(input.content, 'input.content'),
          name: titleOf(input, false),
          idempotencyKey: input.idempotencyKey ?? null,
        }),
      ),
  }),
  editDocument: t.field({
    type: ObjectWritePayload,
    description: 'Exact find/replace on a document; all or nothing.',
    args: { input: t.arg({ type: EditDocumentInput, required: true, description: 'The document and its edits.' }) },
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
    args: { input: t.arg({ type: EditFlowInput, required: true, description: 'The flow and its operations.' }) },
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
    args: { objectId: t.arg.id({ required: true, description: 'The object (WorkspaceObject.id).' }) },
    resolve: (_r, args, ctx) => requestDeleteObject(ctx.deps, ctx.viewer, objectId(args.objectId, 'objectId')),
  }),
}));
