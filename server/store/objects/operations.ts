// Object operations inside a transaction, shared by the API services (a person) and the agent tools
// (a task): create, full rewrite with a base version, exact find/replace on documents, node
// operations on flows, and reading (which records the version a task saw).
import type { Emit } from '../../channel/unit-of-work.ts';
import type { Db, Tx } from '../../db/client.ts';
import { badInput, conflict, ErrorReason, notFound } from '../../errors.ts';
import { applyFindReplace, applyFlowOps, parseContent, type FindReplace, type FlowContent, type FlowOp, type ObjectKind } from '../../domain/object-content.ts';
import { actorTaskId, commitVersionTx, createObjectTx, markSeen, requireBase, type ObjectActor, type WriteResult } from './store.ts';
import { maskWithheld } from './withheld.ts';

/** Collections reference objects of the same workspace that exist and are not deleted. */
async function checkCollection(tx: Tx, workspaceId: string, content: Record<string, unknown>, self: string | null): Promise<void> {
  const ids = [...new Set((content.items as { objectId: string }[]).map((i) => i.objectId))];
  if (self && ids.includes(self)) throw badInput('A collection cannot contain itself', { objectId: self });
  if (!ids.length) return;
  const found = await tx.workspaceObject.findMany({ where: { id: { in: ids }, workspaceId, deletedAt: null }, select: { id: true } });
  const missing = ids.filter((id) => !found.some((f) => f.id === id));
  if (missing.length) throw badInput(`Collection items not found: ${missing.join(', ')}`, { missing });
}

export async function createObjectOp(
  tx: Tx,
  emit: Emit,
  args: { workspaceId: string; kind: ObjectKind; name: string; content: unknown; actor: ObjectActor; idempotencyKey?: string | null },
): Promise<WriteResult> {
  const name = args.name.trim();
  if (!name || name.length > 200) throw badInput('name must be 1-200 characters', { argument: 'name' });
  const content = parseContent(args.kind, args.content);
  if (args.kind === 'COLLECTION') await checkCollection(tx, args.workspaceId, content, null);
  return createObjectTx(tx, emit, { workspaceId: args.workspaceId, kind: args.kind, name, content, actor: args.actor, idempotencyKey: args.idempotencyKey });
}

/** Full rewrite: applies only when `baseVersion` is the current version (else CONFLICT). */
export async function updateObjectOp(
  tx: Tx,
  emit: Emit,
  args: { workspaceId: string; objectId: string; baseVersion: number; content: unknown; name?: string | null; actor: ObjectActor; idempotencyKey?: string | null },
): Promise<WriteResult> {
  return commitVersionTx(tx, emit, {
    workspaceId: args.workspaceId,
    objectId: args.objectId,
    actor: args.actor,
    idempotencyKey: args.idempotencyKey,
    build: async (obj) => {
      requireBase(obj, args.baseVersion);
      const content = parseContent(obj.kind, args.content);
      if (obj.kind === 'COLLECTION') await checkCollection(tx, obj.workspaceId, content, obj.id);
      const name = args.name?.trim();
      if (name !== undefined && (!name || name.length > 200)) throw badInput('name must be 1-200 characters', { argument: 'name' });
      return { content, ...(name ? { name } : {}) };
    },
  });
}

/**
 * Exact find/replace on a document's current version. Every `find` must match exactly once, else
 * nothing is written: CONFLICT when the document changed since `baseVersion` (the text moved under
 * the editor: re-read), BAD_USER_INPUT otherwise (the find is wrong for the text the editor saw).
 */
export async function editDocumentOp(
  tx: Tx,
  emit: Emit,
  args: { workspaceId: string; objectId: string; baseVersion?: number | null; edits: FindReplace[]; actor: ObjectActor; idempotencyKey?: string | null },
): Promise<WriteResult> {
  if (!args.edits.length) throw badInput('edits must not be empty', { argument: 'edits' });
  if (args.edits.some((e) => e.find.length === 0)) throw badInput('find must not be empty', { argument: 'edits' });
  return commitVersionTx(tx, emit, {
    workspaceId: args.workspaceId,
    objectId: args.objectId,
    actor: args.actor,
    idempotencyKey: args.idempotencyKey,
    build: (obj, current) => {
      if (obj.kind !== 'DOCUMENT') throw badInput(`editDocument needs a DOCUMENT, this is a ${obj.kind}`, { kind: obj.kind });
      const base = args.baseVersion ?? null;
      if (base !== null && base > obj.currentVersion) throw badInput(`baseVersion ${base} does not exist yet (current ${obj.currentVersion})`);
      const r = applyFindReplace((current.content as { markdown: string }).markdown, args.edits);
      if (!r.ok) {
        const details = { reason: ErrorReason.FIND_NOT_UNIQUE, objectId: obj.id, currentVersion: obj.currentVersion, baseVersion: base, failures: r.failures };
        const what = r.failures.map((f) => `edit ${f.index} ("${f.find.slice(0, 40)}") matched ${f.matches} times`).join('; ');
        if (base !== null && base < obj.currentVersion) {
          throw conflict(`The document changed since version ${base} (now ${obj.currentVersion}) and ${what}: re-read it`, details);
        }
        throw badInput(`Each find must match exactly once: ${what}`, details);
      }
      return { content: { markdown: r.text } };
    },
  });
}

/** Node operations on a flow: conflicts only on nodes changed since their base version. */
export async function editFlowOp(
  tx: Tx,
  emit: Emit,
  args: { workspaceId: string; objectId: string; baseVersion?: number | null; ops: FlowOp[]; actor: ObjectActor; idempotencyKey?: string | null },
): Promise<WriteResult> {
  if (!args.ops.length) throw badInput('ops must not be empty', { argument: 'ops' });
  return commitVersionTx(tx, emit, {
    workspaceId: args.workspaceId,
    objectId: args.objectId,
    actor: args.actor,
    idempotencyKey: args.idempotencyKey,
    build: (obj, current) => {
      if (obj.kind !== 'FLOW') throw badInput(`editFlow needs a FLOW, this is a ${obj.kind}`, { kind: obj.kind });
      const r = applyFlowOps(current.content as FlowContent, current.nodeVersions, obj.currentVersion, args.ops, args.baseVersion ?? undefined);
      return { content: r.flow as unknown as Record<string, unknown>, changedByOthers: r.changedByOthers };
    },
  });
}

/**
 * Reads a version (default: current). When a task reads, the version it saw is recorded and the
 * object becomes one of its references.
 */
export async function readObjectOp(db: Db, args: { workspaceId: string; objectId: string; version?: number | null; taskId?: string | null }) {
  const obj = await db.workspaceObject.findFirst({ where: { id: args.objectId, workspaceId: args.workspaceId } });
  if (!obj) throw notFound('Object');
  const n = args.version ?? obj.currentVersion;
  const v = await db.objectVersion.findUnique({ where: { objectId_version: { objectId: obj.id, version: n } } });
  if (!v) throw notFound(`Version ${n}`);
  if (args.taskId) await markSeen(db as Tx, args.taskId, obj.id, v.version);
  // A version withheld because it contained a forgotten value is read without its text.
  const [masked] = await maskWithheld(db, [v]);
  return { object: obj, version: masked! };
}

export { actorTaskId };
