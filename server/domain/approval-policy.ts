// Whether a paid action may run now, as a pure function of persisted state. Three separate settings
// decide: the confirmation-free amounts (per action, per day), the plan budget a
// person approved, and the autonomy level; a fourth, the task's budget cap, is a hard stop that no
// approval overrides. The model never appears here: only a person's recorded decision counts.
// The reasons are shown on the card and the cap's refusal in the task's timeline, so they are
// written in the task's language.
import { textsFor } from './replies/texts.ts';
import type { ApprovalReasonView } from './replies/types.ts';

export type AutonomyLevel = 'MANUAL' | 'SUPERVISED' | 'AUTONOMOUS';
export type ApprovalStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'CANCELLED' | 'SUPERSEDED';

export type PaidActionContext = {
  quoteCents: number;
  /** Workspace settings with the task's overrides applied. */
  autonomy: AutonomyLevel;
  perActionFreeCents: number;
  dailyFreeCents: number;
  budgetCapCents: number | null;
  approvedBudgetCents: number | null;
  /** The credential that started the task confirms each paid action (open-API integrations). */
  confirmEach: boolean;
  /** Committed today (UTC) across the workspace: holds not released. */
  spentTodayCents: number;
  /** Committed by this task so far: holds not released. */
  taskCommittedCents: number;
  /** A person's earlier decision on exactly this action, if one was asked for. */
  existing: { id: string; status: ApprovalStatus } | null;
  /** The task's language (ISO 639-1): the card's reasons are written in it (English when none). */
  language?: string | null;
  /** What the workspace does at the cap: END (default) ends the task; PAUSE asks a person to raise it. */
  atCap?: 'END' | 'PAUSE';
  /** A person's decision on raising the cap for exactly this action (PAUSE), if one was asked for. */
  capRaise?: { id: string; status: ApprovalStatus } | null;
};

export type ApprovalReasonCode =
  | 'AUTONOMY_MANUAL'
  | 'CREDENTIAL_CONFIRMS_EACH'
  | 'PER_ACTION_LIMIT'
  | 'DAILY_LIMIT'
  | 'PLAN_BUDGET'
  | 'IRREVERSIBLE'
  /** A forgetting: works of the person contain the value (server/services/memory/works.ts). */
  | 'WORKS_CONTAIN_VALUE'
  /** An input of finished steps changed: their results would be made again (the impact card). */
  | 'INPUT_CHANGED'
  | 'CHECKPOINT'
  /** The task reached its budget cap and waits for a person to raise it. */
  | 'BUDGET_CAP';

export type ApprovalReason = { code: ApprovalReasonCode; message: string };

export type PaidActionDecision =
  | { kind: 'proceed'; approvedBy: 'rules' | 'person' }
  | { kind: 'ask'; reasons: ApprovalReason[]; pendingId: string | null }
  | { kind: 'rejected'; approvalId: string }
  /** The person answered with a new instruction instead: this action is not taken; the model re-decides. */
  | { kind: 'superseded'; approvalId: string }
  | { kind: 'budget-exceeded'; reason: string }
  /** Over the cap with atCap = PAUSE: a person is asked to raise the cap to `proposedCapCents`. */
  | { kind: 'raise-cap'; reason: string; capCents: number; neededCents: number; proposedCapCents: number; pendingId: string | null };

/**
 * The cap a paused task proposes: what this action needs, with half the old cap again as headroom
 * (so the next steps of the plan do not each stop again), rounded up to whole dollars.
 */
export function proposedCap(capCents: number, neededCents: number): number {
  return Math.ceil(Math.max(neededCents, capCents + Math.ceil(capCents / 2)) / 100) * 100;
}

export function decidePaidAction(c: PaidActionContext): PaidActionDecision {
  if (c.quoteCents <= 0) return { kind: 'proceed', approvedBy: 'rules' };
  const t = textsFor(c.language);
  // The cap is absolute: even an approved action may not push the task past it.
  if (c.budgetCapCents !== null && c.taskCommittedCents + c.quoteCents > c.budgetCapCents) {
    const reason = t.budgetCapReason(c.quoteCents, c.taskCommittedCents + c.quoteCents, c.budgetCapCents);
    // A person who declined to raise it ended the matter: the task ends at its cap.
    if (c.atCap !== 'PAUSE' || c.capRaise?.status === 'REJECTED' || c.capRaise?.status === 'CANCELLED') return { kind: 'budget-exceeded', reason };
    const neededCents = c.taskCommittedCents + c.quoteCents;
    return {
      kind: 'raise-cap',
      reason,
      capCents: c.budgetCapCents,
      neededCents,
      proposedCapCents: proposedCap(c.budgetCapCents, neededCents),
      pendingId: c.capRaise?.status === 'PENDING' ? c.capRaise.id : null,
    };
  }
  if (c.existing?.status === 'APPROVED') return { kind: 'proceed', approvedBy: 'person' };
  if (c.existing?.status === 'REJECTED' || c.existing?.status === 'CANCELLED') return { kind: 'rejected', approvalId: c.existing.id };
  if (c.existing?.status === 'SUPERSEDED') return { kind: 'superseded', approvalId: c.existing.id };

  const reasons: ApprovalReason[] = [];
  const push = (r: ApprovalReasonView) => reasons.push({ code: r.code, message: t.approvalReason(r) });
  const withinPlan = c.approvedBudgetCents !== null && c.taskCommittedCents + c.quoteCents <= c.approvedBudgetCents;
  if (c.autonomy === 'MANUAL') push({ code: 'AUTONOMY_MANUAL' });
  if (c.confirmEach) push({ code: 'CREDENTIAL_CONFIRMS_EACH' });
  if (c.approvedBudgetCents !== null && !withinPlan) {
    push({ code: 'PLAN_BUDGET', totalCents: c.taskCommittedCents + c.quoteCents, budgetCents: c.approvedBudgetCents });
  }
  // Autonomous work inside an approved plan budget is not interrupted by the small-amount rules.
  const autonomousInPlan = c.autonomy === 'AUTONOMOUS' && withinPlan;
  if (!autonomousInPlan) {
    if (c.quoteCents > c.perActionFreeCents) push({ code: 'PER_ACTION_LIMIT', quoteCents: c.quoteCents, freeCents: c.perActionFreeCents });
    if (c.spentTodayCents + c.quoteCents > c.dailyFreeCents) push({ code: 'DAILY_LIMIT', totalCents: c.spentTodayCents + c.quoteCents, freeCents: c.dailyFreeCents });
  }
  if (reasons.length === 0) return { kind: 'proceed', approvedBy: 'rules' };
  return { kind: 'ask', reasons, pendingId: c.existing?.status === 'PENDING' ? c.existing.id : null };
}
