// The API's object writes (a person): authorise (WRITE scope, OWNER/MEMBER; other workspaces are
// NOT_FOUND), validate with zod, run one operation in a transaction. Any error rolls it back, so
// a refused write changes nothing.
import { z } from 'zod';
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { parseInput } from '../validate.ts';
import { FlowOp, OBJECT_KINDS } from './content.ts';
import { createObjectOp, editDocumentOp, editFlowOp, updateObjectOp } from './operations.ts';
import type { ObjectActor } from './store.ts';

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
  const { value } = await transactWithEvents(deps, (tx, emit) => createObjectOp(tx, emit, { ...input, actor: userActor(viewer) }));
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
  const { value } = await transactWithEvents(deps, (tx, emit) => updateObjectOp(tx, emit, { ...input, workspaceId, actor: userActor(viewer) }));
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
  const { value } = await transactWithEvents(deps, (tx, emit) => editDocumentOp(tx, emit, { ...input, workspaceId, actor: userActor(viewer) }));
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
  const { value } = await transactWithEvents(deps, (tx, emit) => editFlowOp(tx, emit, { ...input, workspaceId, actor: userActor(viewer) }));
  return value;
}

export { workspaceOf };
