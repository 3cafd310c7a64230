// Asking a person. An approval is keyed by (workspace, requestKey) — a tool call's key, a plan's
// version, an irreversible request — so a retried or replayed request asks once. When it belongs to
// a task, an APPROVAL_REQUESTED event (the approval card) goes to the task's stream in the same
// transaction.
import type { Actor } from '../../channel/types.ts';
import type { Emit } from '../../channel/unit-of-work.ts';
import type { Tx } from '../../db/client.ts';
import type { ApprovalReason } from '../../domain/approval-policy.ts';

export type ApprovalRequest = {
  workspaceId: string;
  taskId: string | null;
  kind: 'PAID_ACTION' | 'PLAN' | 'IRREVERSIBLE' | 'CHECKPOINT';
  /** For checkpoints: the options to choose from. */
  options?: { id: string; label: string; objectId?: string | null }[];
  requestKey: string;
  title: string;
  reasons: ApprovalReason[];
  quoteCents: number | null;
  action: { type: string } & Record<string, unknown>;
  requestedBy: Actor;
};

/** Creates the approval if this request was never made; returns it either way. */
export async function requestApproval(tx: Tx, emit: Emit, req: ApprovalRequest) {
  const inserted = await tx.$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO approvals (id, workspace_id, task_id, kind, status, title, reasons, quote_cents, action, request_key, requested_by_kind, requested_by_id, options, created_at)
     VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3::"ApprovalKind", 'PENDING', $4, $5::jsonb, $6, $7::jsonb, $8, $9::"ActorKind", $10, $11::jsonb, now())
     ON CONFLICT (workspace_id, request_key) DO NOTHING RETURNING id`,
    req.workspaceId,
    req.taskId,
    req.kind,
    req.title,
    JSON.stringify(req.reasons),
    req.quoteCents,
    JSON.stringify(req.action),
    req.requestKey,
    req.requestedBy.kind,
    req.requestedBy.id ?? null,
    req.options ? JSON.stringify(req.options) : null,
  );
  const approval = await tx.approval.findUniqueOrThrow({
    where: { workspaceId_requestKey: { workspaceId: req.workspaceId, requestKey: req.requestKey } },
  });
  if (inserted[0] && req.taskId) {
    emit(req.taskId, {
      type: 'APPROVAL_REQUESTED',
      actor: req.requestedBy,
      payload: {
        approvalId: approval.id,
        kind: req.kind,
        title: req.title,
        quoteCents: req.quoteCents,
        reasons: req.reasons,
        action: req.action,
        ...(req.options ? { options: req.options } : {}),
      },
    });
  }
  return { approval, created: !!inserted[0] };
}
