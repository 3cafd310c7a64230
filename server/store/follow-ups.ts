// The follow_ups table and the queue that wakes them. The row is the truth and pg-boss only wakes:
// a follow-up is recorded once per tool call (call_key is unique) and its wake job is sent in the
// same transaction as the row, so a committed follow-up always has its job and a rolled-back one
// never does; a job that is lost anyway is sent again by the sweep (duePendingFollowUps), and its
// singleton key (the follow-up's id) keeps the queue at one waiting job per follow-up.
//
// Invariants: a follow-up moves PENDING → FIRED or PENDING → CANCELLED, once, under its row lock
// (taken after the task's row lock, the order of every writer here); a FIRED or CANCELLED row never
// changes again, so a late or repeated job finds nothing to do.
import { fromPrisma, type PgBoss } from 'pg-boss';
import type { Actor } from '../channel/types.ts';
import type { Emit } from '../channel/unit-of-work.ts';
import type { Db, Tx } from '../db/client.ts';
import type { FollowUp } from '../db/generated/client.ts';
import type { QuietHours } from '../domain/follow-ups.ts';
import type { Scheduler } from './scheduler.ts';

export const FOLLOW_UP_QUEUE = 'atelier-follow-up';
export type FollowUpJob = { followUpId: string };
export type FollowUpRow = FollowUp;

/** Creates the queue (every process, at start: the API's tool calls send to it too). */
export async function ensureFollowUpQueue(boss: PgBoss): Promise<void> {
  // `short`: one waiting job per singleton key, so the sweep re-sending a wake that is still queued
  // is a no-op. No `notify`: a wake is sent minutes or days ahead, and a worker's poll finds it
  // within a second of its startAfter. A failed wake (a deadlock, the database restarting) is retried.
  await boss.createQueue(FOLLOW_UP_QUEUE, { policy: 'short', retryLimit: 8, retryDelay: 5, retryBackoff: true, expireInSeconds: 5 * 60 });
}

/**
 * Sends the follow-up's wake job, due at `wakeAt`, in the caller's transaction (or on its own with
 * the client). Keyed by the follow-up's id: while a wake waits in the queue, another is not added.
 */
export async function sendFollowUpJob(db: Db, scheduler: Scheduler, f: { id: string; wakeAt: Date }): Promise<void> {
  const job: FollowUpJob = { followUpId: f.id };
  await scheduler.boss.send(FOLLOW_UP_QUEUE, job, { singletonKey: f.id, startAfter: f.wakeAt, db: fromPrisma(db as never) });
}

/** What a follow-up needs of the workspace's settings: the opt-in and the quiet hours. Defaults when the row is missing. */
export async function readFollowUpSettings(db: Db, workspaceId: string): Promise<{ enabled: boolean; quiet: QuietHours }> {
  const s = await db.workspaceSettings.findUnique({
    where: { workspaceId },
    select: { followUpsEnabled: true, timeZone: true, quietFromMinute: true, quietToMinute: true },
  });
  return {
    enabled: s?.followUpsEnabled ?? false,
    quiet: { timeZone: s?.timeZone ?? 'UTC', fromMinute: s?.quietFromMinute ?? null, toMinute: s?.quietToMinute ?? null },
  };
}

/** The follow-up a tool call recorded, if any (its key is the call's idempotency key). */
export function findFollowUpByCallKey(db: Db, taskId: string, callKey: string): Promise<FollowUpRow | null> {
  return db.followUp.findFirst({ where: { taskId, callKey } });
}

export function insertFollowUp(tx: Tx, f: { taskId: string; workspaceId: string; callKey: string; reason: string; dueAt: Date; wakeAt: Date }): Promise<FollowUpRow> {
  return tx.followUp.create({ data: f });
}

type LockedRow = { id: string; task_id: string; workspace_id: string; reason: string; due_at: Date; wake_at: Date; status: FollowUpRow['status'] };

/** Locks the follow-up's row for the rest of the transaction (the caller holds its task's row first). */
export async function lockFollowUp(tx: Tx, id: string): Promise<Pick<FollowUpRow, 'id' | 'taskId' | 'workspaceId' | 'reason' | 'dueAt' | 'wakeAt' | 'status'> | undefined> {
  const rows = await tx.$queryRawUnsafe<LockedRow[]>(
    `SELECT id, task_id, workspace_id, reason, due_at, wake_at, status::text AS status FROM follow_ups WHERE id = $1::uuid FOR UPDATE`,
    id,
  );
  const r = rows[0];
  return r ? { id: r.id, taskId: r.task_id, workspaceId: r.workspace_id, reason: r.reason, dueAt: r.due_at, wakeAt: r.wake_at, status: r.status } : undefined;
}

/** Which task a follow-up belongs to (read without a lock: the caller locks the task, then the row). */
export function taskOfFollowUp(db: Db, id: string): Promise<{ taskId: string; workspaceId: string } | null> {
  return db.followUp.findUnique({ where: { id }, select: { taskId: true, workspaceId: true } });
}

/** PENDING → FIRED (the caller holds the row lock and saw it PENDING). */
export async function markFollowUpFired(tx: Tx, id: string, at: Date): Promise<void> {
  await tx.followUp.update({ where: { id }, data: { status: 'FIRED', firedAt: at } });
}

/** PENDING → CANCELLED (the caller holds the row lock and saw it PENDING); `byUserId` null: not a person. */
export async function markFollowUpCancelled(tx: Tx, id: string, byUserId: string | null, at: Date): Promise<void> {
  await tx.followUp.update({ where: { id }, data: { status: 'CANCELLED', cancelledAt: at, cancelledById: byUserId } });
}

/** A pending follow-up's wake moved (quiet hours changed since it was scheduled). */
export async function moveFollowUpWake(tx: Tx, id: string, wakeAt: Date): Promise<void> {
  await tx.followUp.update({ where: { id }, data: { wakeAt } });
}

/**
 * Cancels every pending follow-up of the task, with a FOLLOW_UP_CANCELLED event each. The caller
 * holds the task's row lock, so no wake of this task can be applied meanwhile.
 */
export async function cancelPendingFollowUps(tx: Tx, emit: Emit, taskId: string, why: { actor: Actor; byUserId: string | null; note: string }): Promise<number> {
  const rows = await tx.$queryRawUnsafe<{ id: string; reason: string }[]>(
    `UPDATE follow_ups SET status = 'CANCELLED', cancelled_at = now(), cancelled_by_id = $2::uuid
      WHERE task_id = $1::uuid AND status = 'PENDING' RETURNING id, reason`,
    taskId,
    why.byUserId,
  );
  for (const r of rows) emit(taskId, { type: 'FOLLOW_UP_CANCELLED', actor: why.actor, payload: { followUpId: r.id, reason: r.reason, note: why.note } });
  return rows.length;
}

/** The task's follow-ups that will still wake it: the turn's end waits for them instead of finishing. */
export function countPendingFollowUps(db: Db, taskId: string): Promise<number> {
  return db.followUp.count({ where: { taskId, status: 'PENDING' } });
}

/** Follow-ups of these tasks in the given workspaces, soonest wake first. */
export function followUpsOfTasks(db: Db, taskIds: readonly string[], workspaceIds: readonly string[]): Promise<FollowUpRow[]> {
  return db.followUp.findMany({ where: { taskId: { in: [...taskIds] }, workspaceId: { in: [...workspaceIds] } }, orderBy: [{ wakeAt: 'asc' }, { id: 'asc' }] });
}

export function readFollowUp(db: Db, id: string): Promise<FollowUpRow> {
  return db.followUp.findUniqueOrThrow({ where: { id } });
}

/** Follow-ups by id, in the given workspaces only. */
export function followUpsByIds(db: Db, ids: readonly string[], workspaceIds: readonly string[]): Promise<FollowUpRow[]> {
  return db.followUp.findMany({ where: { id: { in: [...ids] }, workspaceId: { in: [...workspaceIds] } } });
}

/**
 * Pending follow-ups whose wake time has passed, across workspaces: their jobs may have been lost
 * (a queue restored from a backup, a job deleted by hand). Soonest first, a batch at a time.
 */
export function duePendingFollowUps(db: Db, limit: number): Promise<{ id: string; wake_at: Date }[]> {
  return db.$queryRawUnsafe<{ id: string; wake_at: Date }[]>(
    `SELECT id, wake_at FROM follow_ups WHERE status = 'PENDING' AND wake_at <= now() ORDER BY wake_at LIMIT $1::int`,
    limit,
  );
}

/**
 * The follow-up's reminder in the task's inbox, keyed `follow-up:<id>`: (task, key) is unique, so a
 * follow-up reaches its task's inbox once. Returns the item's id.
 */
export async function insertFollowUpReminder(tx: Tx, item: { taskId: string; workspaceId: string; followUpId: string; text: string }): Promise<string> {
  const row = await tx.inboxItem.create({
    data: { taskId: item.taskId, workspaceId: item.workspaceId, kind: 'SIGNAL', signal: 'FOLLOW_UP', text: item.text, idempotencyKey: `follow-up:${item.followUpId}` },
    select: { id: true },
  });
  return row.id;
}
