// Whether a paid action may run now, as a pure function of persisted state. Three separate settings
// decide: the confirmation-free amounts (per action, per day), the plan budget a
// person approved, and the autonomy level; a fourth, the task's budget cap, is a hard stop that no
// approval overrides. The model never appears here: only a person's recorded decision counts.

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
};

export type ApprovalReasonCode =
  | 'AUTONOMY_MANUAL'
  | 'CREDENTIAL_CONFIRMS_EACH'
  | 'PER_ACTION_LIMIT'
  | 'DAILY_LIMIT'
  | 'PLAN_BUDGET'
  | 'IRREVERSIBLE'
  | 'CHECKPOINT';

export type ApprovalReason = { code: ApprovalReasonCode; message: string };

export type PaidActionDecision =
  | { kind: 'proceed'; approvedBy: 'rules' | 'person' }
  | { kind: 'ask'; reasons: ApprovalReason[]; pendingId: string | null }
  | { kind: 'rejected'; approvalId: string }
  /** The person answered with a new instruction instead: this action is not taken; the model re-decides. */
  | { kind: 'superseded'; approvalId: string }
  | { kind: 'budget-exceeded'; reason: string };

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

export function decidePaidAction(c: PaidActionContext): PaidActionDecision {
  if (c.quoteCents <= 0) return { kind: 'proceed', approvedBy: 'rules' };
  // The cap is absolute: even an approved action may not push the task past it.
  if (c.budgetCapCents !== null && c.taskCommittedCents + c.quoteCents > c.budgetCapCents) {
    return {
      kind: 'budget-exceeded',
      reason: `This action (${usd(c.quoteCents)}) would take the task to ${usd(c.taskCommittedCents + c.quoteCents)}, over its budget cap of ${usd(c.budgetCapCents)}.`,
    };
  }
  if (c.existing?.status === 'APPROVED') return { kind: 'proceed', approvedBy: 'person' };
  if (c.existing?.status === 'REJECTED' || c.existing?.status === 'CANCELLED') return { kind: 'rejected', approvalId: c.existing.id };
  if (c.existing?.status === 'SUPERSEDED') return { kind: 'superseded', approvalId: c.existing.id };

  const reasons: ApprovalReason[] = [];
  const withinPlan = c.approvedBudgetCents !== null && c.taskCommittedCents + c.quoteCents <= c.approvedBudgetCents;
  if (c.autonomy === 'MANUAL') {
    reasons.push({ code: 'AUTONOMY_MANUAL', message: 'Autonomy is set to manual: every paid action is confirmed.' });
  }
  if (c.confirmEach) {
    reasons.push({ code: 'CREDENTIAL_CONFIRMS_EACH', message: 'This task was started through an integration whose paid actions are confirmed one by one.' });
  }
  if (c.approvedBudgetCents !== null && !withinPlan) {
    reasons.push({
      code: 'PLAN_BUDGET',
      message: `This would bring the task to ${usd(c.taskCommittedCents + c.quoteCents)}, above the approved plan budget of ${usd(c.approvedBudgetCents)}.`,
    });
  }
  // Autonomous work inside an approved plan budget is not interrupted by the small-amount rules.
  const autonomousInPlan = c.autonomy === 'AUTONOMOUS' && withinPlan;
  if (!autonomousInPlan) {
    if (c.quoteCents > c.perActionFreeCents) {
      reasons.push({ code: 'PER_ACTION_LIMIT', message: `${usd(c.quoteCents)} is above the confirmation-free amount of ${usd(c.perActionFreeCents)} per action.` });
    }
    if (c.spentTodayCents + c.quoteCents > c.dailyFreeCents) {
      reasons.push({
        code: 'DAILY_LIMIT',
        message: `Today's paid actions would reach ${usd(c.spentTodayCents + c.quoteCents)}, above the confirmation-free ${usd(c.dailyFreeCents)} per day.`,
      });
    }
  }
  if (reasons.length === 0) return { kind: 'proceed', approvedBy: 'rules' };
  return { kind: 'ask', reasons, pendingId: c.existing?.status === 'PENDING' ? c.existing.id : null };
}
