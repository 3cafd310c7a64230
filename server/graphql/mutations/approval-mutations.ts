import { decide } from '../../services/approvals/decide.ts';
import { updateSettings, updateTaskLimits } from '../../services/settings/update-settings.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { ResolveApprovalInput } from '../inputs/resolve-approval-input.ts';
import { UpdateTaskLimitsInput } from '../inputs/update-task-limits-input.ts';
import { UpdateWorkspaceSettingsInput } from '../inputs/update-workspace-settings-input.ts';
import { ApprovalPayload } from '../payloads/approval-payload.ts';
import { TaskLimitsPayload } from '../payloads/task-limits-payload.ts';
import { WorkspaceSettingsPayload } from '../payloads/workspace-settings-payload.ts';

builder.mutationFields((t) => ({
  resolveApproval: t.field({
    type: ApprovalPayload,
    description:
      'Decide an approval: APPROVE, REJECT, or PICK one of its options (a candidate; where a message of the thread goes, for a QUESTION). Final: the same key returns the recorded decision, another decision on a decided approval is CONFLICT. Needs the approve scope and a person (never an integration or the agent).',
    args: { input: t.arg({ type: ResolveApprovalInput, required: true, description: 'The approval and the decision.' }) },
    resolve: async (_r, { input }, ctx) => ({
      approval: await decide(ctx.deps, ctx.viewer, {
        approvalId: parseGlobalId(String(input.approvalId), 'Approval', 'input.approvalId'),
        decision: input.decision,
        idempotencyKey: input.idempotencyKey,
        note: input.note ?? undefined,
        choice: input.choice ?? undefined,
      }),
    }),
  }),
  updateWorkspaceSettings: t.field({
    type: WorkspaceSettingsPayload,
    description: "Change the workspace's confirmation-free amounts, autonomy level, default task cap and what happens at it, time zone, follow-ups and quiet hours, or whether its tokens may send documents of their own (owners only).",
    args: { input: t.arg({ type: UpdateWorkspaceSettingsInput, required: true, description: 'The settings to change.' }) },
    resolve: async (_r, { input }, ctx) => ({
      settings: await updateSettings(ctx.deps, ctx.viewer, {
        workspaceId: parseGlobalId(String(input.workspaceId), 'Workspace', 'input.workspaceId'),
        baseVersion: input.baseVersion ?? undefined,
        perActionFreeCents: input.perActionFreeCents ?? undefined,
        dailyFreeCents: input.dailyFreeCents ?? undefined,
        autonomy: input.autonomy ?? undefined,
        taskBudgetCapCents: input.clearTaskBudgetCap ? null : (input.taskBudgetCapCents ?? undefined),
        trustedDocumentsOnly: input.trustedDocumentsOnly ?? undefined,
        atBudgetCap: input.atBudgetCap ?? undefined,
        timeZone: input.timeZone ?? undefined,
        followUpsEnabled: input.followUpsEnabled ?? undefined,
        quietHours: input.clearQuietHours
          ? null
          : input.quietFromMinute != null || input.quietToMinute != null
            ? { fromMinute: input.quietFromMinute ?? -1, toMinute: input.quietToMinute ?? -1 }
            : undefined,
      }),
    }),
  }),
  updateTaskLimits: t.field({
    type: TaskLimitsPayload,
    description: "Override a task's autonomy, per-action amount or cap, or approve its plan budget.",
    args: { input: t.arg({ type: UpdateTaskLimitsInput, required: true, description: 'The task and the limits to change.' }) },
    resolve: async (_r, { input }, ctx) => ({
      task: await updateTaskLimits(ctx.deps, ctx.viewer, {
        taskId: parseGlobalId(String(input.taskId), 'Task', 'input.taskId'),
        autonomy: input.autonomy ?? undefined,
        perActionFreeCents: input.perActionFreeCents ?? undefined,
        budgetCapCents: input.budgetCapCents ?? undefined,
        approvedBudgetCents: input.approvedBudgetCents ?? undefined,
      }),
    }),
  }),
}));
