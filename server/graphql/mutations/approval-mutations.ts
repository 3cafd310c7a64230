import type { Approval, Task, WorkspaceSettings } from '../../db/generated/client.ts';
import { resolveApproval } from '../../services/approvals/resolve-approval.ts';
import { updateSettings, updateTaskLimits } from '../../services/settings/update-settings.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { ApprovalDecisionEnum, ApprovalRef, AutonomyLevelEnum, WorkspaceSettingsRef } from '../types/approval.ts';
import { TaskRef } from '../types/task.ts';

const ResolveApprovalInput = builder.inputType('ResolveApprovalInput', {
  fields: (t) => ({
    approvalId: t.id({ required: true }),
    decision: t.field({ type: ApprovalDecisionEnum, required: true }),
    idempotencyKey: t.string({ required: true, description: 'Retrying with the same key returns the recorded decision.' }),
    note: t.string({ required: false }),
    choice: t.string({ required: false, description: 'For a card with options: the id of the option chosen.' }),
  }),
});

const UpdateWorkspaceSettingsInput = builder.inputType('UpdateWorkspaceSettingsInput', {
  fields: (t) => ({
    workspaceId: t.id({ required: true }),
    baseVersion: t.int({ required: false, description: 'The version you edited; a stale one is a CONFLICT.' }),
    perActionFreeCents: t.int({ required: false }),
    dailyFreeCents: t.int({ required: false }),
    autonomy: t.field({ type: AutonomyLevelEnum, required: false }),
    taskBudgetCapCents: t.int({ required: false }),
    clearTaskBudgetCap: t.boolean({ required: false, description: 'Remove the default task cap.' }),
  }),
});

const UpdateTaskLimitsInput = builder.inputType('UpdateTaskLimitsInput', {
  fields: (t) => ({
    taskId: t.id({ required: true }),
    autonomy: t.field({ type: AutonomyLevelEnum, required: false }),
    perActionFreeCents: t.int({ required: false }),
    budgetCapCents: t.int({ required: false }),
    approvedBudgetCents: t.int({ required: false, description: 'Spending permission for the plan; needs the approve scope.' }),
  }),
});

const ApprovalPayload = builder.objectRef<{ approval: Approval }>('ApprovalPayload').implement({
  fields: (t) => ({ approval: t.field({ type: ApprovalRef, resolve: (p) => p.approval }) }),
});
const SettingsPayload = builder.objectRef<{ settings: WorkspaceSettings }>('WorkspaceSettingsPayload').implement({
  fields: (t) => ({ settings: t.field({ type: WorkspaceSettingsRef, resolve: (p) => p.settings }) }),
});
const TaskLimitsPayload = builder.objectRef<{ task: Task }>('TaskLimitsPayload').implement({
  fields: (t) => ({ task: t.field({ type: TaskRef, resolve: (p) => p.task }) }),
});

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
    type: SettingsPayload,
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
