// Statements on schedules and schedule_runs. Invariants:
//  - Every statement made for a person names the workspace; only the runner's two sweeps (the due
//    schedules, the runs whose message is still to be sent) cross workspaces, like the watchdog.
//  - A change by a person holds the schedule's row lock and bumps `version`; a run never does (the
//    runner moves nextRunAt and lastRunAt only), so a person's edit never conflicts with a run.
//  - At most one run per (schedule, slot): the unique key turns a second insert for a slot — a
//    second runner, a retried tick — into nothing.
//  - A claimed schedule stays locked until its run commits; other runners skip it (SKIP LOCKED)
//    instead of waiting, and find it no longer due once the run has committed.
import { rawQuery, type Db, type Tx } from '../db/client.ts';
import type { Prisma, Schedule, ScheduleRun } from '../db/generated/client.ts';

export type ScheduleRow = Schedule;
export type ScheduleRunRow = ScheduleRun;

/** The most live schedules one workspace may hold (more is a runaway integration, not a plan). */
export const MAX_SCHEDULES = 200;

/** Recent runs shown per schedule. */
export const RECENT_RUNS = 10;

export function countLiveSchedules(db: Db, workspaceId: string): Promise<number> {
  return db.schedule.count({ where: { workspaceId, deletedAt: null } });
}

export function insertSchedule(tx: Tx, data: Prisma.ScheduleUncheckedCreateInput): Promise<ScheduleRow> {
  return tx.schedule.create({ data: { ...data, version: 1 } });
}

/** The live (not deleted) schedule, locked until the transaction ends; null when there is none. */
export async function lockSchedule(tx: Tx, workspaceId: string, id: string): Promise<ScheduleRow | null> {
  const rows = await rawQuery<{ id: string }>(
    tx,
    `SELECT id::text AS id FROM schedules WHERE workspace_id = $1::uuid AND id = $2::uuid AND deleted_at IS NULL FOR UPDATE`,
    [workspaceId, id],
  );
  if (!rows.length) return null;
  return tx.schedule.findUniqueOrThrow({ where: { id } });
}

/** A person's change to a locked schedule: the fields given, and the next version. */
export function changeSchedule(tx: Tx, workspaceId: string, id: string, data: Prisma.ScheduleUpdateManyMutationInput): Promise<ScheduleRow> {
  return tx.schedule.update({ where: { id, workspaceId }, data: { ...data, version: { increment: 1 } } });
}

/** The workspace's live schedules: the next to run first, then those with nothing ahead (paused or done), newest first. */
export function listLiveSchedules(db: Db, workspaceId: string): Promise<ScheduleRow[]> {
  return db.schedule.findMany({
    where: { workspaceId, deletedAt: null },
    orderBy: [{ nextRunAt: { sort: 'asc', nulls: 'last' } }, { createdAt: 'desc' }, { id: 'asc' }],
    take: MAX_SCHEDULES,
  });
}

/** Live schedules by id, of the given workspaces only (an id of another workspace is a miss). */
export function liveSchedulesByIds(db: Db, ids: string[], workspaceIds: string[]): Promise<ScheduleRow[]> {
  return db.schedule.findMany({ where: { id: { in: ids }, workspaceId: { in: workspaceIds }, deletedAt: null } });
}

/** The newest RECENT_RUNS runs of each schedule, newest first (callers pass schedules they may see). */
export async function recentRunsOf(db: Db, scheduleIds: string[]): Promise<ScheduleRunRow[]> {
  if (!scheduleIds.length) return [];
  const rows = await rawQuery<{ id: string }>(
    db,
    `SELECT id::text AS id FROM (
       SELECT id, row_number() OVER (PARTITION BY schedule_id ORDER BY slot_at DESC) AS n
         FROM schedule_runs WHERE schedule_id = ANY($1::uuid[])
     ) r WHERE n <= $2`,
    [scheduleIds, RECENT_RUNS],
  );
  if (!rows.length) return [];
  return db.scheduleRun.findMany({ where: { id: { in: rows.map((r) => r.id) }, scheduleId: { in: scheduleIds } }, orderBy: [{ slotAt: 'desc' }] });
}

/** The run that started a task, with its schedule's workspace (callers check the viewer may see it). */
export function runOfTask(db: Db, scheduleRunId: string): Promise<(ScheduleRunRow & { schedule: ScheduleRow }) | null> {
  return db.scheduleRun.findUnique({ where: { id: scheduleRunId }, include: { schedule: true } });
}

// ---- The runner ----------------------------------------------------------------------------

/**
 * Claims one due schedule (nextRunAt at or before `now`, not paused, not deleted) of any workspace,
 * locked until the caller's transaction ends; the earliest due first. Schedules another runner holds
 * are skipped, not waited for; `skip` leaves out those this tick already tried.
 */
export async function claimDueSchedule(tx: Tx, now: Date, skip: string[]): Promise<ScheduleRow | null> {
  const rows = await rawQuery<{ id: string }>(
    tx,
    `SELECT id::text AS id FROM schedules
      WHERE next_run_at <= $1 AND NOT paused AND deleted_at IS NULL AND id <> ALL($2::uuid[])
      ORDER BY next_run_at, id
      LIMIT 1
        FOR UPDATE SKIP LOCKED`,
    [now, skip],
  );
  if (!rows.length) return null;
  return tx.schedule.findUniqueOrThrow({ where: { id: rows[0]!.id } });
}

/** Records the run of a slot; null when that slot already ran (the unique key), and nothing is written. */
export async function insertRun(tx: Tx, r: { scheduleId: string; slotAt: Date; missedSlots: number }): Promise<ScheduleRunRow | null> {
  const rows = await tx.scheduleRun.createManyAndReturn({ data: [r], skipDuplicates: true });
  return rows[0] ?? null;
}

/** What a run made: its task, or the message it sent. */
export function recordRunEffect(db: Db, runId: string, effect: { taskId?: string | null; messageId?: string | null }): Promise<ScheduleRunRow> {
  return db.scheduleRun.update({ where: { id: runId }, data: effect });
}

/** After a run (or a slot found already run): the next slot, and when it last ran. Never bumps the version. */
export function advanceSchedule(tx: Tx, id: string, next: { nextRunAt: Date | null; lastRunAt?: Date }): Promise<ScheduleRow> {
  return tx.schedule.update({ where: { id }, data: next });
}

/**
 * The runner pauses a schedule it may not run (its creator can no longer write in the workspace):
 * as a person's pause does, with nothing ahead, and a new version (whoever edits it sees the change).
 */
export function pauseByRunner(tx: Tx, id: string): Promise<ScheduleRow> {
  return tx.schedule.update({ where: { id }, data: { paused: true, nextRunAt: null, version: { increment: 1 } } });
}

export type PendingMessageRun = { id: string; scheduleId: string; slotAt: Date };

/**
 * Runs of MESSAGE schedules whose message is not recorded yet: the run committed, and the runner
 * stopped before the message was sent (or sending failed). Only runs older than `graceMs` (a younger
 * one is still being sent by the runner that made it) and younger than `giveUpMs` (an older one was
 * given up), by the database's clock, which also wrote created_at.
 */
export async function pendingMessageRuns(db: Db, window: { graceMs: number; giveUpMs: number }, limit = 50): Promise<PendingMessageRun[]> {
  const rows = await rawQuery<{ id: string; schedule_id: string; slot_at: Date }>(
    db,
    `SELECT r.id::text AS id, r.schedule_id::text AS schedule_id, r.slot_at
       FROM schedule_runs r JOIN schedules s ON s.id = r.schedule_id
      WHERE s.kind = 'MESSAGE' AND r.message_id IS NULL
        AND r.created_at <= now() - make_interval(secs => $1::double precision / 1000)
        AND r.created_at > now() - make_interval(secs => $2::double precision / 1000)
      ORDER BY r.created_at
      LIMIT $3`,
    [window.graceMs, window.giveUpMs, limit],
  );
  return rows.map((r) => ({ id: r.id, scheduleId: r.schedule_id, slotAt: new Date(r.slot_at) }));
}

/** The role of a person in a workspace (null: not a member). */
export async function roleIn(db: Db, workspaceId: string, userId: string): Promise<'OWNER' | 'MEMBER' | 'VIEWER' | null> {
  const m = await db.membership.findFirst({ where: { workspaceId, userId }, select: { role: true } });
  return m?.role ?? null;
}
