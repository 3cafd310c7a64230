// The task's event log as the runtime reads it back (task_events with event_payloads), the fold's
// snapshots (task_snapshots) and large outputs stored by content hash. The log is append-only and
// gap-free per task (channel/append.ts), so "the events after seq n" is exact; a snapshot is a fold
// up to its seq and (task, seq) is unique, so two workers writing the same snapshot write one row.
import type { Db, Tx } from '../../db/client.ts';
import type { Prisma } from '../../db/generated/client.ts';
import { sealForTask } from '../sealing/scope.ts';
import { opened } from '../sealing/open.ts';
import { workspaceOfTask } from '../task-workspace.ts';

export type LoggedEvent = { seq: number; type: string; payload: unknown };

/** The task's events after `seq`, in order, with payloads stored by reference loaded in their place. */
export async function eventsAfter(db: Db, taskId: string, seq: number): Promise<LoggedEvent[]> {
  const workspaceId = await workspaceOfTask(db, taskId);
  if (!workspaceId) return [];
  const rows = await db.taskEvent.findMany({
    // Naming the workspace confines the read to the task's partition.
    where: { workspaceId, taskId, seq: { gt: seq } },
    orderBy: { seq: 'asc' },
    select: { seq: true, type: true, payload: true, payloadHash: true },
  });
  const hashes = [...new Set(rows.filter((r) => r.payloadHash).map((r) => r.payloadHash!))];
  const bodies = hashes.length
    ? new Map((await db.eventPayload.findMany({ where: { hash: { in: hashes } } })).map((b) => [b.hash, b.body]))
    : new Map();
  // Payloads sealed under a task's key are opened (or read withheld) before the fold sees them.
  return opened(db, rows.map((r) => ({ seq: r.seq, type: r.type, payload: r.payloadHash ? bodies.get(r.payloadHash) : r.payload })));
}

/** The latest snapshot's fold, or null before the first one. */
export async function latestSnapshot(db: Db, taskId: string): Promise<{ seq: number; state: unknown } | null> {
  const snap = await db.taskSnapshot.findFirst({ where: { taskId }, orderBy: { seq: 'desc' } });
  return snap ? (await opened(db, [snap]))[0]! : null;
}

/** Where the log and the latest snapshot stand, to decide whether a new snapshot is due. */
export async function snapshotDue(db: Db, taskId: string): Promise<{ lastEventSeq: number | null; snapshot: { seq: number; createdAt: Date } | null }> {
  const [task, snapshot] = await Promise.all([
    db.task.findUnique({ where: { id: taskId }, select: { lastEventSeq: true } }),
    db.taskSnapshot.findFirst({ where: { taskId }, orderBy: { seq: 'desc' }, select: { seq: true, createdAt: true } }),
  ]);
  return { lastEventSeq: task?.lastEventSeq ?? null, snapshot };
}

/** Writes a snapshot at `seq`; one already there (another worker's, of the same fold) is kept. */
export async function insertSnapshot(db: Db, taskId: string, seq: number, state: unknown): Promise<void> {
  // A fold holds the task's derived content: sealed like the events it was folded from.
  await db.taskSnapshot.create({ data: { taskId, seq, state: (await sealForTask(db, taskId, state)) as Prisma.InputJsonValue } }).catch((e: Error) => {
    if (!/Unique constraint|P2002/.test(e.message)) throw e;
  });
}

/**
 * Stores a body once by its content hash (the same table as large event payloads). A body is never
 * changed: the hash names its content, so a second insert of it is a no-op.
 */
export async function storePayload(db: Db, body: { hash: string; size: number; schema: string; json: string }): Promise<void> {
  await db.$executeRawUnsafe(
    `INSERT INTO event_payloads (hash, size, schema, body) VALUES ($1, $2, $3, $4::jsonb) ON CONFLICT (hash) DO NOTHING`,
    body.hash,
    body.size,
    body.schema,
    body.json,
  );
}

/** A body stored by content hash, or null when none is stored under it. */
export async function readPayload(db: Db, hash: string): Promise<{ body: unknown } | null> {
  return db.eventPayload.findUnique({ where: { hash }, select: { body: true } });
}

/**
 * Whether the task already has the NOTE written under this key. Read with the task row locked by the
 * caller, so the check and the append that follows cannot interleave with another writer's.
 */
export async function hasNoteWithKey(tx: Tx, taskId: string, key: string): Promise<boolean> {
  const workspaceId = await workspaceOfTask(tx, taskId);
  if (!workspaceId) return false;
  const existing = await tx.taskEvent.findFirst({ where: { workspaceId, taskId, type: 'NOTE', payload: { path: ['key'], equals: key } }, select: { id: true } });
  return existing !== null;
}
