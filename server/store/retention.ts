// Retention of the event log: an operator sets how long the history of ended work is kept
// (ATELIER_EVENT_RETENTION_DAYS; unset keeps everything). What goes, and why it is safe:
//  - only tasks that ended (COMPLETED, FAILED, CANCELLED, BUDGET_EXCEEDED) and saw no activity
//    since the horizon; a live task keeps its whole history;
//  - only the events its latest snapshot already folds (seq ≤ snapshot seq): the runtime resumes a
//    task from that snapshot and the events after it (store/journal/events.ts), so a task reopened
//    by a follow-up after its history went still resumes exactly; events after the snapshot stay;
//  - only sequenced events (the sequencer never meets a hole it would have filled);
//  - never the history of a task that has forks: a fork's history starts with it, shared by
//    reference (store/tasks/forks.ts), and must read the same for as long as the fork exists.
// A reader resuming from any cursor still gets every event that is kept, in position order: the
// positions of removed events are simply not there any more (positions stay unique and ordered).
// Large payloads stored by content hash are kept (another event may share one).
import { rawQuery, type Db } from '../db/client.ts';

export const ENDED_STATUSES = ['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'] as const;

// prune-ended-history: one batch of at most $2 tasks ended before $1 that still have folded events.
// Crosses workspaces on purpose (a sweep over all of them), one workspace's partition per task.
const PRUNE_SQL = `
WITH victims AS (
  SELECT t.id, t.workspace_id, s.seq
    FROM tasks t
    JOIN LATERAL (SELECT max(ts.seq) AS seq FROM task_snapshots ts WHERE ts.task_id = t.id) s ON s.seq IS NOT NULL
   WHERE t.status = ANY ($3::"TaskStatus"[]) AND t.last_activity_at < $1::timestamptz
     AND NOT EXISTS (SELECT 1 FROM tasks f WHERE f.forked_from_id = t.id)
     AND EXISTS (SELECT 1 FROM task_events e
                  WHERE e.workspace_id = t.workspace_id AND e.task_id = t.id AND e.seq <= s.seq AND e.position IS NOT NULL)
   ORDER BY t.last_activity_at
   LIMIT $2::int
), gone AS (
  DELETE FROM task_events e USING victims v
   WHERE e.workspace_id = v.workspace_id AND e.task_id = v.id AND e.seq <= v.seq AND e.position IS NOT NULL
  RETURNING e.task_id
)
SELECT count(DISTINCT task_id)::int AS tasks, count(*)::int AS events FROM gone`;

export type PruneReport = { tasks: number; events: number; batches: number };

/**
 * Removes the folded history of tasks that ended before `before`, in batches of `batchTasks`
 * tasks (each batch its own short transaction, so the sweep never holds locks for long), until a
 * batch finds nothing or `maxBatches` ran. Idempotent: a second pass finds nothing more.
 */
export async function pruneEndedHistory(db: Db, opts: { before: Date; batchTasks?: number; maxBatches?: number }): Promise<PruneReport> {
  const report: PruneReport = { tasks: 0, events: 0, batches: 0 };
  const batch = opts.batchTasks ?? 100;
  for (let i = 0; i < (opts.maxBatches ?? 1_000); i++) {
    const [r] = await rawQuery<{ tasks: number; events: number }>(db, PRUNE_SQL, [opts.before, batch, ENDED_STATUSES]);
    report.batches++;
    if (!r || r.tasks === 0) break;
    report.tasks += r.tasks;
    report.events += r.events;
    if (r.tasks < batch) break;
  }
  return report;
}
