import { resolveApproval } from '../../services/approvals/resolve-approval.ts';
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
    description: 'Approve or reject an approval card. Needs the approve scope and a person (never an integration or the agent).',
    args: { input: t.arg({ type: ResolveApprovalInput, required: true }) },
    resolve: async (_r, { input }, ctx) => ({
      approval: await resolveApproval(ctx.deps, ctx.viewer, {
        approvalId: parseGlobalId(String(input.approvalId), 'Approval', 'approvalId'),
        decision: input.decision,
        idempotencyKey: input.idempotencyKey,
        note: input.note ?? undefined,
        choice: input.choice ?? undefined,
      }),
    }),
  }),
  updateWorkspaceSettings: t.field({
    type: WorkspaceSettingsPayload,
    description: "Change the workspace's confirmation-free amounts, autonomy level or default task cap (owners only).",
    args: { input: t.arg({ type: UpdateWorkspaceSettingsInput, required: true }) },
    resolve: async (_r, { input }, ctx) => ({
      settings: await updateSettings(ctx.deps, ctx.viewer, {
        workspaceId: parseGlobalId(String(input.workspaceId), 'Workspace', 'workspaceId'),
        baseVersion: input.baseVersion ?? undefined,
        perActionFreeCents: input.perActionFreeCents ?? undefined,
        dailyFreeCents: input.dailyFreeCents ?? undefined,
        autonomy: input.autonomy ?? undefined,
        taskBudgetCapCents: input.clearTaskBudgetCap ? null : (input.taskBudgetCapCents ?? undefined),
      }),
    }),
  }),
  updateTaskLimits: t.field({
    type: TaskLimitsPayload,
    description: "Override a task's autonomy, per-action amount or cap, or approve its plan budget.",
    args: { input: t.arg({ type: UpdateTaskLimitsInput, required: true }) },
    resolve: async (_r, { input }, ctx) => ({
      task: await updateTaskLimits(ctx.deps, ctx.viewer, {
        taskId: parseGlobalId(String(input.taskId), 'Task', 'taskId'),
        autonomy: input.autonomy ?? undefined,
        perActionFreeCents: input.perActionFreeCents ?? undefined,
        budgetCapCents: input.budgetCapCents ?? undefined,
        approvedBudgetCents: input.approvedBudgetCents ?? undefined,
      }),
    }),
  }),
}));
