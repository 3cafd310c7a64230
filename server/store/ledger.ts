// Statements on ledger_entries, the money of paid actions. The table is append-only: an order
// writes a HOLD, later settled by a CHARGE (delivered) or a RELEASE (failed, cancelled), so
// per order hold = charge + release. Amounts are integer cents; days are UTC days.
import type { Db, Tx } from '../db/client.ts';

export type LedgerDayRow = { day: string; held: bigint | null; on_hold: bigint; charged: bigint; released: bigint; n: bigint };

/**
 * The ledger of a workspace (or of one of its tasks) rolled up per UTC day over the last `days`
 * days including today, newest first. Days without entries are absent; `held` is null on a day
 * with no HOLD. `on_hold` is what is still on hold now of the holds placed that day: holds whose
 * order has been neither charged nor released yet.
 */
export function ledgerDays(db: Db, p: { workspaceId: string; taskId: string | null; days: number }): Promise<LedgerDayRow[]> {
  return db.$queryRawUnsafe<LedgerDayRow[]>(
    `SELECT to_char(created_at AT TIME ZONE 'utc', 'YYYY-MM-DD') AS day,
            SUM(amount_cents) FILTER (WHERE kind = 'HOLD')::bigint AS held,
            COALESCE(SUM(amount_cents) FILTER (
              WHERE kind = 'HOLD' AND NOT EXISTS (
                SELECT 1 FROM ledger_entries s WHERE s.job_id = e.job_id AND s.kind IN ('CHARGE', 'RELEASE'))), 0)::bigint AS on_hold,
            COALESCE(SUM(amount_cents) FILTER (WHERE kind = 'CHARGE'), 0)::bigint AS charged,
            COALESCE(SUM(amount_cents) FILTER (WHERE kind = 'RELEASE'), 0)::bigint AS released,
            COUNT(*)::bigint AS n
       FROM ledger_entries e
      WHERE workspace_id = $1::uuid AND ($2::uuid IS NULL OR task_id = $2::uuid)
        AND created_at >= (date_trunc('day', now() AT TIME ZONE 'utc') - ($3::int - 1) * interval '1 day') AT TIME ZONE 'utc'
      GROUP BY 1 ORDER BY 1 DESC`,
    p.workspaceId,
    p.taskId,
    p.days,
  );
}

/**
 * What a task has committed: held and not released (charged or still on hold). Invariant: each
 * order counts once — its HOLD adds, a RELEASE takes back, a CHARGE adds nothing (its hold
 * already counted it).
 */
export async function committedCentsOfTask(tx: Tx, taskId: string): Promise<number> {
  const rows = await tx.$queryRawUnsafe<{ c: bigint | null }[]>(
    `SELECT COALESCE(SUM(CASE kind WHEN 'HOLD' THEN amount_cents WHEN 'RELEASE' THEN -amount_cents ELSE 0 END), 0)::bigint AS c
       FROM ledger_entries WHERE task_id = $1::uuid`,
    taskId,
  );
  return Number(rows[0]?.c ?? 0);
}

/**
 * What a workspace has committed since the start of the UTC day, counted like
 * committedCentsOfTask. The approvals gate reads it after locking the workspace's settings row,
 * so concurrent orders of one workspace are decided against each other's committed spending.
 */
export async function committedCentsToday(tx: Tx, workspaceId: string): Promise<number> {
  const rows = await tx.$queryRawUnsafe<{ c: bigint | null }[]>(
    `SELECT COALESCE(SUM(CASE kind WHEN 'HOLD' THEN amount_cents WHEN 'RELEASE' THEN -amount_cents ELSE 0 END), 0)::bigint AS c
       FROM ledger_entries WHERE workspace_id = $1::uuid AND created_at >= date_trunc('day', now() AT TIME ZONE 'utc') AT TIME ZONE 'utc'`,
    workspaceId,
  );
  return Number(rows[0]?.c ?? 0);
}
