// Holds and their settlement on ledger_entries: the money of one paid order. Its quote is held when
// the order is placed (in the order's own transaction); when the job ends, success charges the hold
// and anything else releases it. (job, kind) is unique and the table is append-only, so per order:
// one hold, then one charge or one release — hold = charge + release — however many callbacks,
// retries or workers there are. (Roll-ups and committed spending: ledger.ts.)
import type { Db, Tx } from '../db/client.ts';

/** Holds an order's quote; written in the transaction that places the order, never without it. */
export async function insertHold(tx: Tx, hold: { workspaceId: string; taskId: string | null; jobId: string; amountCents: number; reason: string }): Promise<void> {
  await tx.ledgerEntry.create({
    data: { workspaceId: hold.workspaceId, taskId: hold.taskId, jobId: hold.jobId, kind: 'HOLD', amountCents: hold.amountCents, reason: hold.reason },
  });
}

/**
 * An order not placed: the reused result's price recorded as REUSE on the job that made it, so the
 * ledger shows what reuse saved. Not spending (committed sums ignore it). (job, REUSE) is unique:
 * a result reused again later in the same task is counted once.
 */
export async function insertReuse(tx: Tx, r: { workspaceId: string; taskId: string; jobId: string; amountCents: number; reason: string }): Promise<void> {
  await tx.ledgerEntry.createMany({ data: [{ ...r, kind: 'REUSE' }], skipDuplicates: true });
}

/** The order's hold, or null for a free order (nothing was held, so nothing is settled). */
export async function findHold(tx: Tx, jobId: string) {
  return tx.ledgerEntry.findUnique({ where: { jobId_kind: { jobId, kind: 'HOLD' } } });
}

/** The order's settlement (its CHARGE or RELEASE), or null while it is still held. */
export async function findSettlement(tx: Tx, jobId: string) {
  return tx.ledgerEntry.findFirst({ where: { jobId, kind: { in: ['CHARGE', 'RELEASE'] } } });
}

/**
 * Settles a hold with a CHARGE or a RELEASE of the held amount — unless the order was settled already
 * either way: an order is charged or released, never both, and never twice.
 */
export async function insertSettlement(
  tx: Tx,
  s: { workspaceId: string; taskId: string | null; jobId: string; kind: 'CHARGE' | 'RELEASE'; amountCents: number; reason: string },
): Promise<void> {
  await tx.$executeRawUnsafe(
    `INSERT INTO ledger_entries (id, workspace_id, task_id, job_id, kind, amount_cents, reason, created_at)
     SELECT gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, $4::"LedgerKind", $5, $6, now()
      WHERE NOT EXISTS (SELECT 1 FROM ledger_entries WHERE job_id = $3::uuid AND kind IN ('CHARGE', 'RELEASE'))
     ON CONFLICT (job_id, kind) DO NOTHING`,
    s.workspaceId,
    s.taskId,
    s.jobId,
    s.kind,
    s.amountCents,
    s.reason,
  );
}

/** Money per task (or workspace): held, charged, released, and what is still on hold. */
export async function ledgerSummary(db: Db, where: { taskId?: string; workspaceId?: string }) {
  const rows = await db.ledgerEntry.groupBy({ by: ['kind'], where, _sum: { amountCents: true } });
  const sum = (k: string) => rows.find((r) => r.kind === k)?._sum.amountCents ?? 0;
  const held = sum('HOLD');
  const charged = sum('CHARGE');
  const released = sum('RELEASE');
  return { heldCents: held, chargedCents: charged, releasedCents: released, outstandingCents: held - charged - released, savedCents: sum('REUSE') };
}
