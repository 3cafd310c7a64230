// Statements on approvals: the cards a person decides. A card is keyed by (workspace, request key),
// so a retried or replayed request finds the card it made instead of asking again.
import { sealingKeyFor } from '../sealing/scope.ts';
import { opened } from '../sealing/open.ts';
import { sealValue } from '../../domain/sealing.ts';
import type { Actor } from '../../channel/types.ts';
import type { Tx } from '../../db/client.ts';

/** A card as filed (request-approval.ts builds it); JSON members are stored as jsonb. */
export type NewApproval = {
  workspaceId: string;
  taskId: string | null;
  kind: 'PAID_ACTION' | 'PLAN' | 'IRREVERSIBLE' | 'CHECKPOINT' | 'BUDGET_CAP';
  title: string;
  reasons: unknown[];
  quoteCents: number | null;
  action: object;
  requestKey: string;
  requestedBy: Actor;
  options?: unknown[];
};

/**
 * Files a PENDING card unless one with the same (workspace, request key) exists; returns the new
 * card's id, or nothing when it already existed. Invariant: one card per request key, whatever
 * its status — a request that was already decided is never asked again.
 */
export async function insertApproval(tx: Tx, req: NewApproval): Promise<{ id: string }[]> {
  // A task's card (a plan, a paid action, a checkpoint) quotes what the task derived: sealed with
  // the task's key when memory is in its context (store/sealing); a card without a task is the API's.
  const key = req.taskId ? await sealingKeyFor(tx, req.taskId) : null;
  const seal = <T>(v: T): T => (key && v != null ? sealValue(key, v) : v);
  return tx.$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO approvals (id, workspace_id, task_id, kind, status, title, reasons, quote_cents, action, request_key, requested_by_kind, requested_by_id, options, created_at)
     VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3::"ApprovalKind", 'PENDING', $4, $5::jsonb, $6, $7::jsonb, $8, $9::"ActorKind", $10, $11::jsonb, now())
     ON CONFLICT (workspace_id, request_key) DO NOTHING RETURNING id`,
    req.workspaceId,
    req.taskId,
    req.kind,
    seal(req.title),
    JSON.stringify(seal(req.reasons)),
    req.quoteCents,
    JSON.stringify(seal(req.action)),
    req.requestKey,
    req.requestedBy.kind,
    req.requestedBy.id ?? null,
    req.options ? JSON.stringify(seal(req.options)) : null,
  );
}

/**
 * Locks a card's row (empty when it does not exist). Invariant: a decision reads the card's status
 * under this lock, so of two concurrent decisions the second sees the first and a card is decided
 * once. Lock order: the task's row first, then the card's.
 */
export function lockApproval(tx: Tx, approvalId: string): Promise<{ id: string }[]> {
  return tx.$queryRawUnsafe<{ id: string }[]>('SELECT id FROM approvals WHERE id = $1::uuid FOR UPDATE', approvalId);
}

/** The task's cards of `kinds` still waiting for a person, oldest first. */
export async function pendingCardsOfTask(tx: Tx, taskId: string, kinds: readonly NewApproval['kind'][]) {
  return opened(tx, await tx.approval.findMany({
    where: { taskId, status: 'PENDING', kind: { in: [...kinds] } },
    orderBy: { createdAt: 'asc' },
    select: { id: true, kind: true, title: true },
  }));
}
