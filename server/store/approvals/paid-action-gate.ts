// The gate every paid action passes, inside the transaction that would place its order. It locks
// the workspace's settings row first, so concurrent orders of one workspace are decided one after
// the other against committed spending (two tasks cannot both slip under the daily limit), then
// applies the pure policy (policy.ts). Outcomes: proceed (place the order in this transaction),
// ask a person (an approval card, keyed by the call), rejected by a person, or over the task's cap.
import type { Emit } from '../../channel/unit-of-work.ts';
import type { Tx } from '../../db/client.ts';
import { decidePaidAction, type ApprovalStatus, type PaidActionDecision } from '../../domain/approval-policy.ts';
import { textsFor } from '../../domain/replies/texts.ts';
import { committedCentsOfTask, committedCentsToday } from '../ledger.ts';
import { lockWorkspaceSettings, type SettingsRow } from '../workspace-settings.ts';
import { requestApproval } from './request-approval.ts';

// The order path and the settings service lock the settings row through this module, as before.
export { lockWorkspaceSettings, type SettingsRow };

export type PaidAction = {
  workspaceId: string;
  taskId: string | null;
  /** The tool call's idempotency key: one approval per call, however often it is replayed. */
  requestKey: string;
  quoteCents: number;
  title: string;
  action: { type: string } & Record<string, unknown>;
};

export type GateOutcome =
  | { kind: 'proceed' }
  | { kind: 'awaiting-approval'; approvalId: string; reasons: { code: string; message: string }[] }
  | { kind: 'rejected'; approvalId: string; note: string | null }
  | { kind: 'superseded'; approvalId: string; note: string | null }
  | { kind: 'budget-exceeded'; reason: string };

/**
 * The key of the card asking to raise the cap for one action at one cap: a person's answer is
 * found again on every replay of the call, and once the cap was raised a second shortfall (other
 * spending meanwhile) asks anew instead of reusing the answered card.
 */
export const capRaiseKey = (requestKey: string, capCents: number) => `cap:${requestKey}:${capCents}`;

/** The action of a BUDGET_CAP card; approving it sets the task's cap to `toCents` (resolve-approval.ts). */
export const RAISE_CAP_ACTION = 'RAISE_BUDGET_CAP';
export type RaiseCapAction = { type: typeof RAISE_CAP_ACTION; fromCents: number; toCents: number; neededCents: number; toolCallId: string };

/** Committed = held and not released (charged or still on hold), by a task or by its workspace today. */
export function committedCents(tx: Tx, where: 'task' | 'today', id: string): Promise<number> {
  return where === 'task' ? committedCentsOfTask(tx, id) : committedCentsToday(tx, id);
}

/** `locked`: the settings row this transaction already locked (the order's gate locks it first). */
export async function paidActionGate(
  tx: Tx,
  emit: Emit,
  a: PaidAction,
  locked?: SettingsRow,
): Promise<{ outcome: GateOutcome; decision: PaidActionDecision }> {
  const settings = locked ?? (await lockWorkspaceSettings(tx, a.workspaceId));
  const task = a.taskId
    ? await tx.task.findUnique({
        where: { id: a.taskId },
        select: { autonomy: true, perActionFreeCents: true, budgetCapCents: true, approvedBudgetCents: true, paidActions: true, language: true },
      })
    : null;
  const existing = await tx.approval.findUnique({
    where: { workspaceId_requestKey: { workspaceId: a.workspaceId, requestKey: a.requestKey } },
    select: { id: true, status: true, note: true },
  });
  const capCents = task ? (task.budgetCapCents ?? settings.task_budget_cap_cents) : null;
  const taskCommittedCents = a.taskId ? await committedCents(tx, 'task', a.taskId) : 0;
  // A person's answer on raising the cap is read only for an action that is over it.
  const capRaise =
    a.taskId && capCents !== null && settings.at_budget_cap === 'PAUSE' && taskCommittedCents + a.quoteCents > capCents
      ? await tx.approval.findUnique({
          where: { workspaceId_requestKey: { workspaceId: a.workspaceId, requestKey: capRaiseKey(a.requestKey, capCents) } },
          select: { id: true, status: true },
        })
      : null;
  const decision = decidePaidAction({
    quoteCents: a.quoteCents,
    autonomy: task?.autonomy ?? settings.autonomy,
    perActionFreeCents: task?.perActionFreeCents ?? settings.per_action_free_cents,
    dailyFreeCents: settings.daily_free_cents,
    budgetCapCents: capCents,
    approvedBudgetCents: task?.approvedBudgetCents ?? null,
    confirmEach: task?.paidActions === 'CONFIRM_EACH',
    spentTodayCents: await committedCents(tx, 'today', a.workspaceId),
    taskCommittedCents,
    existing: existing ? { id: existing.id, status: existing.status as ApprovalStatus } : null,
    language: task?.language ?? null,
    atCap: settings.at_budget_cap,
    capRaise: capRaise ? { id: capRaise.id, status: capRaise.status as ApprovalStatus } : null,
  });
  switch (decision.kind) {
    case 'proceed':
      if (existing?.status === 'PENDING') {
        // The thresholds changed since the card was shown (e.g. a higher limit): it is moot now.
        await tx.approval.update({
          where: { id: existing.id },
          data: { status: 'CANCELLED', resolvedAt: new Date(), note: textsFor(task?.language).noLongerNeeded },
        });
        if (a.taskId) emit(a.taskId, { type: 'APPROVAL_RESOLVED', actor: { kind: 'SYSTEM' }, payload: { approvalId: existing.id, status: 'CANCELLED' } });
      }
      return { outcome: { kind: 'proceed' }, decision };
    case 'rejected':
      return { outcome: { kind: 'rejected', approvalId: decision.approvalId, note: existing?.note ?? null }, decision };
    case 'superseded':
      return { outcome: { kind: 'superseded', approvalId: decision.approvalId, note: existing?.note ?? null }, decision };
    case 'budget-exceeded':
      return { outcome: { kind: 'budget-exceeded', reason: decision.reason }, decision };
    case 'raise-cap': {
      // The task waits instead of ending: the call stays where it is (no order, no hold) and a
      // person is asked to raise the cap; approving it requeues the task and this call is replayed
      // with its key, so the order is placed once, now under the higher cap.
      if (decision.pendingId) return { outcome: { kind: 'awaiting-approval', approvalId: decision.pendingId, reasons: [] }, decision };
      const action: RaiseCapAction = { type: RAISE_CAP_ACTION, fromCents: decision.capCents, toCents: decision.proposedCapCents, neededCents: decision.neededCents, toolCallId: a.requestKey };
      const { approval } = await requestApproval(tx, emit, {
        workspaceId: a.workspaceId,
        taskId: a.taskId,
        kind: 'BUDGET_CAP',
        requestKey: capRaiseKey(a.requestKey, decision.capCents),
        title: textsFor(task?.language).capRaiseTitle(decision.capCents, decision.proposedCapCents),
        reasons: [{ code: 'BUDGET_CAP', message: decision.reason }],
        quoteCents: a.quoteCents,
        action: { ...action, what: a.title },
        requestedBy: { kind: 'AGENT' },
      });
      return { outcome: { kind: 'awaiting-approval', approvalId: approval.id, reasons: [{ code: 'BUDGET_CAP', message: decision.reason }] }, decision };
    }
    case 'ask': {
      const { approval } = await requestApproval(tx, emit, {
        workspaceId: a.workspaceId,
        taskId: a.taskId,
        kind: 'PAID_ACTION',
        requestKey: a.requestKey,
        title: a.title,
        reasons: decision.reasons,
        quoteCents: a.quoteCents,
        action: a.action,
        requestedBy: { kind: 'AGENT' },
      });
      return { outcome: { kind: 'awaiting-approval', approvalId: approval.id, reasons: decision.reasons }, decision };
    }
  }
}
