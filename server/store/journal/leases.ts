// The turns table as the runtime's lease: which worker may write for a turn (its generation), until
// when (lease_expires_at), and how the turn ended. Each statement either runs inside the caller's
// fenced transaction — task row locked first, then the turn row (lock order task → turn, as
// everywhere) — or names the generation it writes for in its own WHERE, so a superseded worker's
// statement matches no row. The runtime (runtime/lease.ts, runtime/turn-end.ts) sequences them.
import type { Db, Tx } from '../../db/client.ts';
import type { TaskStatus } from '../../domain/task-status.ts';

export type ClaimableTurn = {
  id: string;
  task_id: string;
  workspace_id: string;
  number: number;
  status: string;
  generation: number;
  /** The lease is held by someone (not yet expired): the turn is not claimable while RUNNING. */
  lease_live: boolean;
};

/** The task a turn belongs to, read before any lock: the claim must lock that task's row first. */
export async function taskOfTurn(db: Db, turnId: string): Promise<{ taskId: string } | null> {
  return db.turn.findUnique({ where: { id: turnId }, select: { taskId: true } });
}

/**
 * Locks the turn row for a claim (the task row is already locked) and reports whether its lease is
 * still live, judged by the database's clock so that every worker judges it alike.
 */
export async function lockTurnForClaim(tx: Tx, turnId: string): Promise<ClaimableTurn | undefined> {
  const rows = await tx.$queryRawUnsafe<ClaimableTurn[]>(
    `SELECT id, task_id, workspace_id, number, status, generation,
            (lease_expires_at IS NOT NULL AND lease_expires_at > now()) AS lease_live
       FROM turns WHERE id = $1::uuid FOR UPDATE`,
    turnId,
  );
  return rows[0];
}

/**
 * Grants the lease under the claim's row lock: the new generation is the caller's (always the
 * previous one + 1), so every write of the worker it replaces is fenced out from this commit on.
 * started_at keeps the first start across takeovers.
 */
export async function grantLease(tx: Tx, turn: { turnId: string; generation: number; workerId: string; leaseMs: number }): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE turns SET generation = $2, status = 'RUNNING', lease_owner = $3,
            lease_expires_at = now() + ($4::int * interval '1 millisecond'), started_at = COALESCE(started_at, now())
      WHERE id = $1::uuid`,
    turn.turnId,
    turn.generation,
    turn.workerId,
    turn.leaseMs,
  );
}

/** A turn whose task can no longer run is never claimed: it is stopped, naming the task's status. */
export async function stopTurnOfStoppedTask(tx: Tx, turnId: string, taskStatus: TaskStatus): Promise<void> {
  await tx.turn.update({ where: { id: turnId }, data: { status: 'STOPPED', outcome: `task ${taskStatus}`, endedAt: new Date() } });
}

/**
 * Extends the lease of the generation that holds it, in one statement without a transaction.
 * Returns the task's status, or null when the turn is no longer this generation's or no longer
 * RUNNING: a superseded worker extends nothing.
 */
export async function extendLease(db: Db, turnId: string, generation: number, leaseMs: number): Promise<{ taskStatus: TaskStatus } | null> {
  const rows = await db.$queryRawUnsafe<{ task_status: TaskStatus }[]>(
    `UPDATE turns SET lease_expires_at = now() + ($3::int * interval '1 millisecond')
      WHERE id = $1::uuid AND generation = $2 AND status = 'RUNNING'
      RETURNING (SELECT status FROM tasks WHERE id = turns.task_id) AS task_status`,
    turnId,
    generation,
    leaseMs,
  );
  const row = rows[0];
  return row ? { taskStatus: row.task_status } : null;
}

export type Interrupt = { inboxItemId: string; policy: 'INTERRUPT' | 'ROLLBACK' };

/**
 * The turn's generation and status with its task's status, and the oldest unread instruction from a
 * person whose input policy (its own, else the task's) interrupts the run: one read, no lock. Only a
 * hint for a safe boundary — the fence inside the next write is what decides.
 */
export async function readBoundary(db: Db, turnId: string): Promise<{ generation: number; status: string; taskStatus: TaskStatus; interrupt: Interrupt | null } | undefined> {
  const rows = await db.$queryRawUnsafe<{ generation: number; status: string; task_status: TaskStatus; interrupt_id: string | null; interrupt_policy: 'INTERRUPT' | 'ROLLBACK' | null }[]>(
    `SELECT t.generation, t.status, k.status AS task_status, i.id AS interrupt_id, i.policy AS interrupt_policy
       FROM turns t JOIN tasks k ON k.id = t.task_id
       LEFT JOIN LATERAL (
         SELECT x.id, COALESCE(x.input_policy, k.input_policy)::text AS policy
           FROM inbox_items x
          WHERE x.task_id = k.id AND x.consumed_at IS NULL AND x.withdrawn_at IS NULL AND x.author_user_id IS NOT NULL
            AND (x.kind = 'MESSAGE' OR x.signal IN ('REVISE', 'ADD_CONTEXT'))
            AND COALESCE(x.input_policy, k.input_policy) IN ('INTERRUPT', 'ROLLBACK')
          ORDER BY x.created_at LIMIT 1
       ) i ON true
      WHERE t.id = $1::uuid`,
    turnId,
  );
  const r = rows[0];
  return r
    ? { generation: r.generation, status: r.status, taskStatus: r.task_status, interrupt: r.interrupt_id ? { inboxItemId: r.interrupt_id, policy: r.interrupt_policy! } : null }
    : undefined;
}

/**
 * Locks the turn row for a fenced write (the task row is already locked) and returns its generation
 * and status. Held to commit: no claim can move the generation until the write is done.
 */
export async function lockTurnForWrite(tx: Tx, turnId: string): Promise<{ generation: number; status: string } | undefined> {
  const rows = await tx.$queryRawUnsafe<{ generation: number; status: string }[]>('SELECT generation, status FROM turns WHERE id = $1::uuid FOR UPDATE', turnId);
  return rows[0];
}

/**
 * Lets the lease run out now so that a takeover can start at once. Only the holding generation's
 * RUNNING turn matches: releasing never touches a turn someone else already took over.
 */
export async function expireLease(db: Db, turnId: string, generation: number): Promise<void> {
  await db.$executeRawUnsafe(`UPDATE turns SET lease_expires_at = now() WHERE id = $1::uuid AND generation = $2 AND status = 'RUNNING'`, turnId, generation);
}

/**
 * Marks the holding generation's RUNNING turn STOPPED (its task was paused or cancelled); a turn
 * already taken over or ended matches nothing and is left as it is.
 */
export async function stopRunningTurn(db: Db, turnId: string, generation: number, why: string): Promise<void> {
  await db.turn.updateMany({
    where: { id: turnId, generation, status: 'RUNNING' },
    data: { status: 'STOPPED', outcome: why, endedAt: new Date(), leaseExpiresAt: null },
  });
}

/**
 * Ends the turn under the fence with its outcome, and drops the lease so the watchdog never wakes it
 * again. FAILED for a failure, STOPPED at the budget cap, COMPLETED for everything else (the turn did
 * its part, whatever comes next for the task).
 */
export async function closeTurn(tx: Tx, turnId: string, how: string): Promise<void> {
  await tx.turn.update({
    where: { id: turnId },
    data: {
      status: how === 'fail' ? 'FAILED' : how === 'budget' ? 'STOPPED' : 'COMPLETED',
      outcome: how,
      endedAt: new Date(),
      leaseExpiresAt: null,
    },
  });
}

/** Every turn the task ever had, this one included: the loop guard counts against the task's limit. */
export async function countTurns(tx: Tx, taskId: string): Promise<number> {
  return tx.turn.count({ where: { taskId } });
}
