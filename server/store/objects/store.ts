// The one write path of the shared workspace. Every object write (people through the API, tasks
// through tools, generation results) goes through `createObjectTx` or `commitVersionTx`, inside a
// transaction that also appends the task events (transactWithEvents). Invariants:
//  - A write locks the object row (SELECT ... FOR UPDATE) before reading the current version, so
//    concurrent writers are serialised per object and no update is lost; the new version is
//    current + 1 and (object, version) is unique, so versions are gap-free.
//  - A write with an idempotency key (a tool call id) that already produced a version returns
//    that version: a replayed call never creates a second one ((object, key) is unique).
//  - Every version and deletion gets a position in the workspace's object feed, bumped under the
//    feed head's row lock held until commit, so committed positions form a gap-free prefix (the
//    same argument as channel/append.ts). The lock is taken last in the write to keep it short.
//  - Tasks that saw the object (other than the writer) get a change notice; nobody is woken.
// Lock order: object row → feed head → (events) task rows → workspace row.
import { createHash } from 'node:crypto';
import { OBJECTS_CHANNEL } from '../../channel/notifier.ts';
import type { Emit } from '../../channel/unit-of-work.ts';
import type { Tx } from '../../db/client.ts';
import type { Prisma } from '../../db/generated/client.ts';
import { conflict, ErrorReason, notFound } from '../../errors.ts';
import { describeChanges, diffContent, nextNodeVersions, type Changes, type FlowContent, type NodeVersions, type ObjectKind, type WithheldVersions } from '../../domain/object-content.ts';

export type ObjectActor =
  | { kind: 'USER'; userId: string }
  /** A task's worker (the agent). */
  | { kind: 'AGENT'; taskId: string }
  /** The system on a task's behalf (generation results). */
  | { kind: 'SYSTEM'; taskId: string | null };

export const actorTaskId = (a: ObjectActor): string | null => (a.kind === 'USER' ? null : a.taskId);
const actorId = (a: ObjectActor): string | null => (a.kind === 'USER' ? a.userId : a.taskId);

export type LockedObject = {
  id: string;
  workspaceId: string;
  kind: ObjectKind;
  name: string;
  currentVersion: number;
  deletedAt: Date | null;
};

/** A stable uuid derived from a key (same key, same id): creation by key is idempotent. */
export function uuidFromKey(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  const v = `5${h.slice(13, 16)}`;
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16) + h.slice(17, 20);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${v}-${variant}-${h.slice(20, 32)}`;
}

/** Locks the object row; an object of another workspace does not exist (NOT_FOUND). */
export async function lockObject(tx: Tx, workspaceId: string, objectId: string): Promise<LockedObject> {
  const rows = await tx.$queryRawUnsafe<
    { id: string; workspace_id: string; kind: ObjectKind; name: string; current_version: number; deleted_at: Date | null }[]
  >(
    `SELECT id, workspace_id, kind, name, current_version, deleted_at FROM workspace_objects
      WHERE id = $1::uuid AND workspace_id = $2::uuid FOR UPDATE`,
    objectId,
    workspaceId,
  );
  const r = rows[0];
  if (!r) throw notFound('Object');
  return { id: r.id, workspaceId: r.workspace_id, kind: r.kind, name: r.name, currentVersion: r.current_version, deletedAt: r.deleted_at };
}

/** Appends to the workspace's object feed (gap-free position); subscribers are woken after commit. */
export async function appendFeed(tx: Tx, emit: Emit, workspaceId: string, objectId: string, version: number, kind: 'CREATED' | 'UPDATED' | 'DELETED'): Promise<number> {
  const rows = await tx.$queryRawUnsafe<{ position: bigint }[]>(
    `WITH h AS (
       INSERT INTO object_feed_heads (workspace_id, position) VALUES ($1::uuid, 1)
       ON CONFLICT (workspace_id) DO UPDATE SET position = object_feed_heads.position + 1
       RETURNING position
     )
     INSERT INTO object_changes (workspace_id, position, object_id, version, kind, created_at)
     SELECT $1::uuid, h.position, $2::uuid, $3, $4::"ObjectChangeKind", now() FROM h
     RETURNING position`,
    workspaceId,
    objectId,
    version,
    kind,
  );
  const position = Number(rows[0]!.position);
  // No NOTIFY in the transaction (its commit-time lock would serialise every notifying commit of
  // the database): the unit of work wakes listeners after commit, coalesced, and never for a rollback.
  emit.advanced(OBJECTS_CHANNEL, workspaceId, position);
  return position;
}

/** Records that a task read or wrote `version` (never moves back) and that it references the object. */
export async function markSeen(tx: Tx, taskId: string, objectId: string, version: number): Promise<void> {
  await tx.$executeRawUnsafe(
    `INSERT INTO task_object_seen (task_id, object_id, version, seen_at) VALUES ($1::uuid, $2::uuid, $3, now())
     ON CONFLICT (task_id, object_id) DO UPDATE SET version = GREATEST(task_object_seen.version, EXCLUDED.version), seen_at = now()`,
    taskId,
    objectId,
    version,
  );
  await tx.$executeRawUnsafe(
    `INSERT INTO task_object_refs (task_id, object_id, created_at) VALUES ($1::uuid, $2, now()) ON CONFLICT DO NOTHING`,
    taskId,
    objectId,
  );
}

export type CreateSpec = {
  workspaceId: string;
  kind: ObjectKind;
  name: string;
  /** Validated content (content.ts). */
  content: Record<string, unknown>;
  actor: ObjectActor;
  /** With a key, the object id is derived from it: a retried creation returns the same object. */
  idempotencyKey?: string | null;
  /** Explicit stable id (generation assets: derived from the job). */
  objectId?: string;
};

export type WriteResult = {
  object: LockedObject;
  version: number;
  /** True when an earlier call with the same idempotency key already wrote this version. */
  replayed: boolean;
  summary: string;
  changes: Changes;
  /** For flow edits: nodes others changed since the editor's base version (they stay applied). */
  changedByOthers?: string[];
  fromVersion?: number;
};

export async function createObjectTx(tx: Tx, emit: Emit, spec: CreateSpec): Promise<WriteResult> {
  const id = spec.objectId ?? (spec.idempotencyKey ? uuidFromKey(`object:${spec.workspaceId}:${spec.idempotencyKey}`) : undefined);
  const inserted = await tx.$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO workspace_objects (id, workspace_id, kind, name, current_version, created_by_kind, created_by_id, created_at, updated_at)
     VALUES (COALESCE($1::uuid, gen_random_uuid()), $2::uuid, $3::"ObjectKind", $4, 1, $5::"ActorKind", $6, now(), now())
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    id ?? null,
    spec.workspaceId,
    spec.kind,
    spec.name,
    spec.actor.kind,
    actorId(spec.actor),
  );
  if (!inserted[0]) {
    // Created before by the same key: return it as it was (another workspace's id is NOT_FOUND).
    const obj = await lockObject(tx, spec.workspaceId, id!);
    return { object: obj, version: 1, replayed: true, summary: 'created', changes: {} };
  }
  const objectId = inserted[0].id;
  const nodeVersions = spec.kind === 'FLOW' ? nextNodeVersions({}, null, spec.content as FlowContent, 1) : null;
  await tx.objectVersion.create({
    data: {
      objectId,
      workspaceId: spec.workspaceId,
      version: 1,
      name: spec.name,
      content: spec.content as Prisma.InputJsonValue,
      ...(nodeVersions ? { nodeVersions } : {}),
      summary: 'created',
      changes: {},
      authorKind: spec.actor.kind,
      authorUserId: spec.actor.kind === 'USER' ? spec.actor.userId : null,
      authorTaskId: actorTaskId(spec.actor),
      idempotencyKey: spec.idempotencyKey ?? null,
    },
  });
  const taskId = actorTaskId(spec.actor);
  if (taskId) {
    await markSeen(tx, taskId, objectId, 1);
    emit(taskId, {
      type: 'OBJECT_CREATED',
      actor: { kind: spec.actor.kind, id: actorId(spec.actor) },
      payload: { objectId, kind: spec.kind, name: spec.name, version: 1 },
    });
  }
  await appendFeed(tx, emit, spec.workspaceId, objectId, 1, 'CREATED');
  const object: LockedObject = { id: objectId, workspaceId: spec.workspaceId, kind: spec.kind, name: spec.name, currentVersion: 1, deletedAt: null };
  return { object, version: 1, replayed: false, summary: 'created', changes: {} };
}

export type VersionDraft = {
  name?: string;
  content: Record<string, unknown>;
  /** For flow edits: nodes others changed since the editor's base (reported back, still applied). */
  changedByOthers?: string[];
  /** Earlier versions this version withholds from readers (recorded in its `changes`; see withheld.ts). */
  withheld?: WithheldVersions;
  /** The summary, when the write says itself what it did (else it is computed from the changes). */
  summary?: string;
};

/**
 * Writes a new version of an object. `build` receives the locked object and its current version
 * and returns the new content, or throws (CONFLICT / BAD_USER_INPUT) — then nothing is written.
 */
export async function commitVersionTx(
  tx: Tx,
  emit: Emit,
  args: {
    workspaceId: string;
    objectId: string;
    actor: ObjectActor;
    idempotencyKey?: string | null;
    build: (
      obj: LockedObject,
      current: { version: number; name: string; content: Record<string, unknown>; nodeVersions: NodeVersions },
    ) => VersionDraft | Promise<VersionDraft>;
  },
): Promise<WriteResult> {
  // Lock first, then read the current version: a FOR UPDATE joined with the version row would be
  // re-checked against the *new* current_version after waiting for a concurrent writer, and drop it.
  const obj = await lockObject(tx, args.workspaceId, args.objectId);
  if (args.idempotencyKey) {
    const prior = await tx.objectVersion.findUnique({
      where: { objectId_idempotencyKey: { objectId: obj.id, idempotencyKey: args.idempotencyKey } },
      select: { version: true, summary: true, changes: true },
    });
    if (prior) return { object: obj, version: prior.version, replayed: true, summary: prior.summary, changes: prior.changes as Changes };
  }
  if (obj.deletedAt) {
    throw conflict('The object was deleted; it can no longer be edited', { reason: ErrorReason.OBJECT_DELETED, objectId: obj.id, currentVersion: obj.currentVersion });
  }
  const cur = await tx.objectVersion.findUniqueOrThrow({
    where: { objectId_version: { objectId: obj.id, version: obj.currentVersion } },
    select: { version: true, name: true, content: true, nodeVersions: true },
  });
  const current = {
    version: cur.version,
    name: cur.name,
    content: cur.content as Record<string, unknown>,
    nodeVersions: (cur.nodeVersions ?? {}) as NodeVersions,
  };
  const draft = await args.build(obj, current);
  const version = obj.currentVersion + 1;
  const name = draft.name ?? obj.name;
  const changes: Changes = {
    ...diffContent(obj.kind, current.content, draft.content),
    ...(name !== obj.name ? { name: true } : {}),
    ...(draft.withheld ? { withheld: draft.withheld } : {}),
  };
  const summary = draft.summary ?? describeChanges(obj.kind, changes);
  const nodeVersions = obj.kind === 'FLOW' ? nextNodeVersions(current.nodeVersions, current.content as FlowContent, draft.content as FlowContent, version) : null;
  await tx.objectVersion.create({
    data: {
      objectId: obj.id,
      workspaceId: obj.workspaceId,
      version,
      name,
      content: draft.content as Prisma.InputJsonValue,
      ...(nodeVersions ? { nodeVersions } : {}),
      summary,
      changes: changes as Prisma.InputJsonValue,
      authorKind: args.actor.kind,
      authorUserId: args.actor.kind === 'USER' ? args.actor.userId : null,
      authorTaskId: actorTaskId(args.actor),
      idempotencyKey: args.idempotencyKey ?? null,
    },
  });
  await tx.$executeRawUnsafe(
    'UPDATE workspace_objects SET current_version = $2, name = $3, updated_at = now() WHERE id = $1::uuid',
    obj.id,
    version,
    name,
  );
  const editorTask = actorTaskId(args.actor);
  // Every other live task that saw the object learns about it at its next step (no wake-up).
  await tx.$executeRawUnsafe(
    `INSERT INTO change_notices (id, task_id, workspace_id, object_id, from_version, to_version, summary, changes, author_kind, author_id, created_at)
     SELECT gen_random_uuid(), s.task_id, $1::uuid, $2::uuid, $3, $4, $5, $6::jsonb, $7::"ActorKind", $8, now()
       FROM task_object_seen s JOIN tasks t ON t.id = s.task_id
      WHERE s.object_id = $2::uuid AND s.task_id IS DISTINCT FROM $9::uuid
        AND t.status NOT IN ('COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED')
     ON CONFLICT (task_id, object_id, to_version) DO NOTHING`,
    obj.workspaceId,
    obj.id,
    obj.currentVersion,
    version,
    summary,
    JSON.stringify(changes),
    args.actor.kind,
    actorId(args.actor),
    editorTask,
  );
  if (editorTask) {
    await markSeen(tx, editorTask, obj.id, version);
    emit(editorTask, {
      type: 'OBJECT_UPDATED',
      actor: { kind: args.actor.kind, id: actorId(args.actor) },
      payload: { objectId: obj.id, kind: obj.kind, name, fromVersion: obj.currentVersion, version, summary },
    });
  }
  await appendFeed(tx, emit, obj.workspaceId, obj.id, version, 'UPDATED');
  return {
    object: { ...obj, name, currentVersion: version },
    version,
    replayed: false,
    summary,
    changes,
    fromVersion: obj.currentVersion,
    ...(draft.changedByOthers ? { changedByOthers: draft.changedByOthers } : {}),
  };
}

/** Stale full rewrite: CONFLICT with the current version in the details, nothing written. */
export function requireBase(obj: LockedObject, baseVersion: number): void {
  if (baseVersion !== obj.currentVersion) {
    throw conflict(
      `The object is at version ${obj.currentVersion}, not ${baseVersion}: re-read it and apply your change to the current version`,
      { reason: ErrorReason.STALE_BASE_VERSION, objectId: obj.id, baseVersion, currentVersion: obj.currentVersion },
    );
  }
}

/** The id of the object a generation job's result becomes (create-asset.ts): derived from the job id. */
export const assetIdForJob = (jobId: string) => uuidFromKey(`asset:${jobId}`);
