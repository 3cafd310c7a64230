// The API's object writes (a person): authorise (WRITE scope, OWNER/MEMBER; other workspaces are
// NOT_FOUND), validate with zod, run one operation in a transaction. Any error rolls it back, so
// a refused write changes nothing.
import { z } from 'zod';
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import { propagateObjectChange } from '../checklist/propagate-change.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../../errors.ts';
import { parseInput } from '../validate.ts';
import { checkIdempotencyKey, claimOf, clientKey, recordIdempotencyKey, type IdempotencyClaim } from '../../store/idempotency.ts';
import type { Tx } from '../../db/client.ts';
import { FlowOp, OBJECT_KINDS } from '../../domain/object-content.ts';
import { createObjectOp, editDocumentOp, editFlowOp, updateObjectOp } from '../../store/objects/operations.ts';
import type { ObjectActor } from '../../store/objects/store.ts';

const Key = z.string().min(1).max(200).optional().nullable();
const Uuid = z.string().uuid();

/** The object's workspace, checked against the viewer (unknown or foreign ids are NOT_FOUND). */
async function workspaceOf(deps: Deps, viewer: Viewer, objectId: string, access: 'read' | 'write'): Promise<string> {
  const row = await deps.prisma.workspaceObject.findUnique({ where: { id: objectId }, select: { workspaceId: true } });
  if (!row) throw notFound('Object');
  requireWorkspace(viewer, row.workspaceId, access, 'Object');
  return row.workspaceId;
}

const userActor = (viewer: Viewer): ObjectActor => ({ kind: 'USER', userId: viewer.userId });

/**
 * A person's write with an idempotency key: the key must name this request (checked before, recorded
 * in the write's transaction), and is stored as `client:<key>` beside the agent's tool-call keys.
 */
async function keyed<I extends { idempotencyKey?: string | null }>(
  deps: Deps,
  viewer: Viewer,
  workspaceId: string,
  operation: string,
  input: I,
): Promise<{ claim: IdempotencyClaim | null; input: I; record(tx: Tx): Promise<void> }> {
  const claim = claimOf(operation, { workspaceId, userId: viewer.userId }, input as I & Record<string, unknown>);
  if (claim) await checkIdempotencyKey(deps.prisma, claim);
  return {
    claim,
    input: { ...input, idempotencyKey: input.idempotencyKey ? clientKey(input.idempotencyKey) : input.idempotencyKey },
    record: async (tx) => {
      if (claim) await recordIdempotencyKey(tx, claim);
    },
  };
}

export const CreateObjectInput = z.object({
  workspaceId: Uuid,
  kind: z.enum(OBJECT_KINDS),
  name: z.string().min(1).max(200),
  content: z.unknown(),
  idempotencyKey: Key,
});

export async function createObject(deps: Deps, viewer: Viewer, raw: z.input<typeof CreateObjectInput>) {
  const input = parseInput(CreateObjectInput, raw);
  requireWorkspace(viewer, input.workspaceId, 'write');
  const k = await keyed(deps, viewer, input.workspaceId, 'createObject', input);
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    await k.record(tx);
    return createObjectOp(tx, emit, { ...k.input, actor: userActor(viewer) });
  });
  return value;
}

export const UpdateObjectInput = z.object({
  objectId: Uuid,
  baseVersion: z.number().int().positive(),
  content: z.unknown(),
  name: z.string().max(200).optional().nullable(),
  idempotencyKey: Key,
});

export async function updateObject(deps: Deps, viewer: Viewer, raw: z.input<typeof UpdateObjectInput>) {
  const input = parseInput(UpdateObjectInput, raw);
  const workspaceId = await workspaceOf(deps, viewer, input.objectId, 'write');
  const k = await keyed(deps, viewer, workspaceId, 'updateObject', input);
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    await k.record(tx);
    const written = await updateObjectOp(tx, emit, { ...k.input, workspaceId, actor: userActor(viewer) });
    // What live tasks made from it is now stale: marked, with the impact card, in this transaction.
    if (!written.replayed) await propagateObjectChange(tx, emit, { workspaceId, objectId: written.object.id, version: written.version, userId: viewer.userId });
    return written;
  });
  return value;
}

export const EditDocumentInput = z.object({
  objectId: Uuid,
  baseVersion: z.number().int().positive().optional().nullable(),
  edits: z.array(z.object({ find: z.string().min(1).max(20_000), replace: z.string().max(100_000) })).min(1).max(100),
  idempotencyKey: Key,
});

export async function editDocument(deps: Deps, viewer: Viewer, raw: z.input<typeof EditDocumentInput>) {
  const input = parseInput(EditDocumentInput, raw);
  const workspaceId = await workspaceOf(deps, viewer, input.objectId, 'write');
  const k = await keyed(deps, viewer, workspaceId, 'editDocument', input);
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    await k.record(tx);
    const written = await editDocumentOp(tx, emit, { ...k.input, workspaceId, actor: userActor(viewer) });
    // What live tasks made from it is now stale: marked, with the impact card, in this transaction.
    if (!written.replayed) await propagateObjectChange(tx, emit, { workspaceId, objectId: written.object.id, version: written.version, userId: viewer.userId });
    return written;
  });
  return value;
}

export const EditFlowInput = z.object({
  objectId: Uuid,
  baseVersion: z.number().int().positive().optional().nullable(),
  ops: z.array(FlowOp).min(1).max(200),
  idempotencyKey: Key,
});

export async function editFlow(deps: Deps, viewer: Viewer, raw: z.input<typeof EditFlowInput>) {
  const input = parseInput(EditFlowInput, raw);
  const workspaceId = await workspaceOf(deps, viewer, input.objectId, 'write');
  const k = await keyed(deps, viewer, workspaceId, 'editFlow', input);
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    await k.record(tx);
    const written = await editFlowOp(tx, emit, { ...k.input, workspaceId, actor: userActor(viewer) });
    // What live tasks made from it is now stale: marked, with the impact card, in this transaction.
    if (!written.replayed) await propagateObjectChange(tx, emit, { workspaceId, objectId: written.object.id, version: written.version, userId: viewer.userId });
    return written;
  });
  return value;
}

export { workspaceOf };
