// The money of MCP calls whose task ended while the call was left unfinished (a worker died and the
// task was cancelled before a takeover; a crash between holding the price and starting the call).
// The call's own outcome settles its hold in the same transaction (runtime/mcp/bus.ts); these
// statements find what no outcome will ever settle, so that no price stays held forever.
// Invariants:
//  - only holds of MCP calls (reason `MCP call …`) of tasks in an ended status are returned, and
//    only calls whose turn holds no live lease: a worker that still runs the call settles it itself;
//  - a settlement is still written by insertSettlement (ledger-holds.ts): one per hold, ever.
import { rawQuery, type Db } from '../../db/client.ts';

export const ENDED_TASK_STATUSES = ['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'] as const;

export type UnsettledCallHold = { jobId: string; workspaceId: string; taskId: string; amountCents: number; reason: string };
export type McpCallState = { id: string; name: string; status: string; leased: boolean; leaseExpiresAt: Date | null };

/** Unsettled MCP call holds of one ended task (by its task index: cheap enough after every end). */
export async function unsettledCallHoldsOfEndedTask(db: Db, taskId: string): Promise<UnsettledCallHold[]> {
  const rows = await rawQuery<{ job_id: string; workspace_id: string; task_id: string; amount_cents: number; reason: string }>(
    db,
    `SELECT h.job_id::text, h.workspace_id::text, h.task_id::text, h.amount_cents, h.reason
       FROM ledger_entries h JOIN tasks t ON t.id = h.task_id
      WHERE h.task_id = $1::uuid AND h.kind = 'HOLD' AND h.reason LIKE 'MCP call %'
        AND t.status::text = ANY($2::text[])
        AND NOT EXISTS (SELECT 1 FROM ledger_entries s WHERE s.job_id = h.job_id AND s.kind IN ('CHARGE', 'RELEASE'))`,
    [taskId, ENDED_TASK_STATUSES],
  );
  return rows.map((r) => ({ jobId: r.job_id, workspaceId: r.workspace_id, taskId: r.task_id, amountCents: r.amount_cents, reason: r.reason }));
}

/**
 * Ended tasks with an unsettled MCP call hold, at most `limit` (the sweep behind the reaction to a
 * task's end: a process that died right after the end's commit). A scan of the holds: it runs on
 * a slow timer, never per request.
 */
export async function endedTasksWithUnsettledCallHolds(db: Db, limit: number): Promise<string[]> {
  const rows = await rawQuery<{ task_id: string }>(
    db,
    `SELECT DISTINCT h.task_id::text
       FROM ledger_entries h JOIN tasks t ON t.id = h.task_id
      WHERE h.kind = 'HOLD' AND h.reason LIKE 'MCP call %' AND t.status::text = ANY($2::text[])
        AND NOT EXISTS (SELECT 1 FROM ledger_entries s WHERE s.job_id = h.job_id AND s.kind IN ('CHARGE', 'RELEASE'))
      LIMIT $1`,
    [limit, ENDED_TASK_STATUSES],
  );
  return rows.map((r) => r.task_id);
}

/** The task's MCP calls (named `<server>__<tool>`), with whether their turn still holds a live lease. */
export async function mcpCallsOfTask(db: Db, taskId: string): Promise<McpCallState[]> {
  const rows = await rawQuery<{ id: string; name: string; status: string; leased: boolean; lease_expires_at: Date | null }>(
    db,
    `SELECT c.id, c.name, c.status::text AS status, u.lease_expires_at,
            (u.lease_expires_at IS NOT NULL AND u.lease_expires_at > now()) AS leased
       FROM tool_calls c JOIN turns u ON u.id = c.turn_id
      WHERE c.task_id = $1::uuid AND c.name LIKE '%\\_\\_%'`,
    [taskId],
  );
  return rows.map((r) => ({ id: r.id, name: r.name, status: r.status, leased: r.leased, leaseExpiresAt: r.lease_expires_at }));
}
