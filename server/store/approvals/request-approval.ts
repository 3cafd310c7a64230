// Asking a person. An approval is keyed by (workspace, requestKey) — a tool call's key, a plan's
// version, an irreversible request — so a retried or replayed request asks once. When it belongs to
// a task, an APPROVAL_REQUESTED event (the approval card) goes to the task's stream in the same
// transaction.
import { opened } from '../sealing/open.ts';
import type { Actor } from '../../channel/types.ts';
import type { Emit } from '../../channel/unit-of-work.ts';
import type { Tx } from '../../db/client.ts';
import type { ApprovalReason } from '../../domain/approval-policy.ts';
import { insertApproval } from './statements.ts';

export type ApprovalRequest = {
  workspaceId: string;
  taskId: string | null;
  kind: 'PAID_ACTION' | 'PLAN' | 'IRREVERSIBLE' | 'CHECKPOINT' | 'BUDGET_CAP';
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
  const inserted = await insertApproval(tx, req);
  const [approval] = await opened(tx, [
    await tx.approval.findUniqueOrThrow({ where: { workspaceId_requestKey: { workspaceId: req.workspaceId, requestKey: req.requestKey } } }),
  ]);
  if (inserted[0] && req.taskId) {
    emit(req.taskId, {
      type: 'APPROVAL_REQUESTED',
      actor: req.requestedBy,
      payload: {
        approvalId: approval!.id,
        kind: req.kind,
        title: req.title,
        quoteCents: req.quoteCents,
        reasons: req.reasons,
        action: req.action,
        ...(req.options ? { options: req.options } : {}),
      },
    });
  }
  return { approval: approval!, created: !!inserted[0] };
}
