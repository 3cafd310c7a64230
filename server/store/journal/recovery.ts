// What the watchdog finds from the database alone (the source of truth), in bounded batches. The
// wake-ups it re-sends are deduplicated by (turn, generation) and a task has at most one live turn
// (a partial unique index), so several watchdogs may run these at once.
import type { Db } from '../../db/client.ts';

/** At most this many rows per scan and tick: a backlog drains over ticks instead of in one burst. */
const BATCH = 500;

/**
 * RUNNING turns whose lease expired (their worker died or froze), stamped as re-sent now. Only turns
 * not re-sent within `throttleMs` are taken, so several watchdogs, and ticks faster than a worker
 * picks a job up, do not send the same takeover wake-up again and again.
 */
export async function takeExpiredLeases(db: Db, throttleMs: number): Promise<{ id: string; generation: number }[]> {
  return db.$queryRawUnsafe<{ id: string; generation: number }[]>(
    `UPDATE turns SET enqueued_at = now()
      WHERE id IN (SELECT id FROM turns WHERE status = 'RUNNING' AND lease_expires_at < now()
                     AND enqueued_at < now() - ($1::int * interval '1 millisecond') LIMIT ${BATCH})
      RETURNING id, generation`,
    throttleMs,
  );
}

/**
 * QUEUED turns whose wake-up is older than `staleMs` (the job was lost or is stuck), stamped as
 * re-sent now, so the next re-send waits another `staleMs`.
 */
export async function takeStaleQueuedTurns(db: Db, staleMs: number): Promise<{ id: string; generation: number }[]> {
  return db.$queryRawUnsafe<{ id: string; generation: number }[]>(
    `UPDATE turns SET enqueued_at = now()
      WHERE id IN (SELECT id FROM turns WHERE status = 'QUEUED'
                     AND enqueued_at < now() - ($1::int * interval '1 millisecond') LIMIT ${BATCH})
      RETURNING id, generation`,
    staleMs,
  );
}

/**
 * Runnable tasks with unread inbox items but no live turn: each needs a turn. A waiting task's job
 * results are not a reason: the job's end decided in its own transaction whether to wake it.
 */
export async function tasksWithUnreadInboxAndNoTurn(db: Db): Promise<{ id: string; workspace_id: string }[]> {
  return db.$queryRawUnsafe<{ id: string; workspace_id: string }[]>(
    `SELECT k.id, k.workspace_id FROM tasks k
      WHERE k.status IN ('QUEUED', 'RUNNING', 'WAITING')
        AND EXISTS (SELECT 1 FROM inbox_items i WHERE i.task_id = k.id AND i.consumed_at IS NULL AND i.withdrawn_at IS NULL
                      -- A job result or a follow-up of a task that waits (on other jobs or a person) is
                      -- not a reason to run: the job's end, or the follow-up's wake, decided in its own
                      -- transaction whether to wake it (a task waiting on a card waits for the person).
                      AND NOT (k.status = 'WAITING' AND i.kind = 'SIGNAL' AND i.signal IN ('JOB_RESULT', 'FOLLOW_UP')))
        AND NOT EXISTS (SELECT 1 FROM turns t WHERE t.task_id = k.id AND t.status IN ('QUEUED', 'RUNNING'))
      LIMIT ${BATCH}`,
  );
}
