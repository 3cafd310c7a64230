import type { ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { visibleWorkspaceIds } from '../../auth/access.ts';
import type { Approval, WorkspaceSettings } from '../../db/generated/client.ts';
import { listApprovals } from '../../services/approvals/list-approvals.ts';
import { getSettings } from '../../services/settings/update-settings.ts';
import { ledgerByDay } from '../../services/ledger/ledger-by-day.ts';
import { encodeKeyset } from '../../services/keyset.ts';
import { builder } from '../builder.ts';
import { cursorConnection } from '../pagination.ts';
import { TaskRef } from './task.ts';
import { UserRef } from './user.ts';
import { WorkspaceRef } from './workspace.ts';

export const AutonomyLevelEnum = builder.enumType('AutonomyLevel', {
  description:
    'MANUAL: every paid action is confirmed. SUPERVISED: confirmation above the confirmation-free amounts. AUTONOMOUS: no per-action or daily confirmation within an approved plan budget.',
  values: ['MANUAL', 'SUPERVISED', 'AUTONOMOUS'] as const,
});
export const ApprovalStatusEnum = builder.enumType('ApprovalStatus', { values: ['PENDING', 'APPROVED', 'REJECTED', 'CANCELLED'] as const });
export const ApprovalKindEnum = builder.enumType('ApprovalKind', {
  description:
    'PAID_ACTION: a priced action above a threshold. PLAN: a plan with its budget. IRREVERSIBLE: deleting or forgetting. CHECKPOINT: confirm, choose among candidates, or adjust.',
  values: ['PAID_ACTION', 'PLAN', 'IRREVERSIBLE', 'CHECKPOINT'] as const,
});
export const ApprovalDecisionEnum = builder.enumType('ApprovalDecision', { values: ['APPROVE', 'REJECT'] as const });

const ApprovalReasonRef = builder.objectRef<{ code: string; message: string }>('ApprovalReason');
builder.objectType(ApprovalReasonRef, {
  description: 'Why a person must decide: which threshold the action crosses, or that it cannot be undone.',
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
});

const ApprovalOptionRef = builder.objectRef<{ id: string; label: string; objectId?: string | null }>('ApprovalOption');
builder.objectType(ApprovalOptionRef, {
  fields: (t) => ({ id: t.exposeString('id'), label: t.exposeString('label'), objectId: t.exposeString('objectId', { nullable: true }) }),
});

export const ApprovalRef = builder.objectRef<Approval>('Approval');
builder.node(ApprovalRef, {
  description: 'An approval card: a decision only a person with the approve scope can take.',
  id: { resolve: (a) => a.id },
  loadManyWithoutCache: async (ids, ctx) => {
    const rows = await ctx.deps.prisma.approval.findMany({ where: { id: { in: ids }, workspaceId: { in: visibleWorkspaceIds(ctx.viewer) } } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  },
  fields: (t) => ({
    kind: t.field({ type: ApprovalKindEnum, resolve: (a) => a.kind }),
    status: t.field({ type: ApprovalStatusEnum, resolve: (a) => a.status }),
    title: t.exposeString('title'),
    reasons: t.field({ type: [ApprovalReasonRef], resolve: (a) => (a.reasons as { code: string; message: string }[]) ?? [] }),
    quoteCents: t.exposeInt('quoteCents', { nullable: true, description: 'The price quoted for the action (or the plan budget), in cents.' }),
    action: t.field({ type: 'JSON', description: 'What is to be decided: { type, ... }.', resolve: (a) => a.action }),
    outcome: t.field({ type: 'JSON', nullable: true, resolve: (a) => a.outcome }),
    note: t.exposeString('note', { nullable: true }),
    options: t.field({
      type: [ApprovalOptionRef],
      description: 'For a checkpoint: what to choose from (candidates carry the object id of their picture).',
      resolve: (a) => (a.options as { id: string; label: string; objectId?: string | null }[] | null) ?? [],
    }),
    choice: t.exposeString('choice', { nullable: true }),
    requestedBy: t.exposeString('requestedByKind', { description: 'USER, AGENT or SYSTEM' }),
    resolvedBy: t.field({ type: UserRef, nullable: true, resolve: (a, _x, ctx) => (a.resolvedById ? ctx.loaders.user.load(a.resolvedById) : null) }),
    task: t.field({ type: TaskRef, nullable: true, resolve: (a, _x, ctx) => (a.taskId ? ctx.loaders.task.load(a.taskId) : null) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    resolvedAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true }),
  }),
});

export const WorkspaceSettingsRef = builder.objectRef<WorkspaceSettings>('WorkspaceSettings');
builder.objectType(WorkspaceSettingsRef, {
  description: 'Three separate settings decide when a paid action needs a person: confirmation-free amounts, the approved plan budget (per task) and the autonomy level.',
  fields: (t) => ({
    perActionFreeCents: t.exposeInt('perActionFreeCents'),
    dailyFreeCents: t.exposeInt('dailyFreeCents'),
    autonomy: t.field({ type: AutonomyLevelEnum, resolve: (s) => s.autonomy }),
    taskBudgetCapCents: t.exposeInt('taskBudgetCapCents', { nullable: true, description: 'Default hard cap for a task; crossing it ends the task as BUDGET_EXCEEDED.' }),
    version: t.exposeInt('version'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const LedgerDayRef = builder.objectRef<{ day: string; heldCents: number; chargedCents: number; releasedCents: number; entries: number }>('LedgerDay');
builder.objectType(LedgerDayRef, {
  fields: (t) => ({
    day: t.exposeString('day', { description: 'UTC date, YYYY-MM-DD' }),
    heldCents: t.exposeInt('heldCents'),
    chargedCents: t.exposeInt('chargedCents'),
    releasedCents: t.exposeInt('releasedCents'),
    entries: t.exposeInt('entries'),
  }),
});

builder.objectFields(WorkspaceRef, (t) => ({
  settings: t.field({ type: WorkspaceSettingsRef, resolve: (w, _a, ctx) => getSettings(ctx.deps, ctx.viewer, w.id) }),
  approvals: t.connection({
    type: ApprovalRef,
    description: 'Approval cards, newest first.',
    args: { statuses: t.arg({ type: [ApprovalStatusEnum], required: false }) },
    resolve: (w, args, ctx) =>
      cursorConnection({ args, toCursor: encodeKeyset, defaultSize: 20, maxSize: 100 }, (page: ResolveCursorConnectionArgs) =>
        listApprovals(ctx.deps, ctx.viewer, { workspaceId: w.id, statuses: args.statuses ?? null }, page),
      ),
  }),
  ledgerByDay: t.field({
    type: [LedgerDayRef],
    description: 'Money per UTC day, newest first.',
    args: { days: t.arg.int({ required: false, defaultValue: 30 }) },
    resolve: (w, args, ctx) => ledgerByDay(ctx.deps, ctx.viewer, { workspaceId: w.id, days: args.days }),
  }),
}));

builder.objectFields(TaskRef, (t) => ({
  approvals: t.connection({
    type: ApprovalRef,
    description: "The task's approval cards, newest first.",
    args: { statuses: t.arg({ type: [ApprovalStatusEnum], required: false }) },
    resolve: (task, args, ctx) =>
      cursorConnection({ args, toCursor: encodeKeyset, defaultSize: 20, maxSize: 100 }, (page: ResolveCursorConnectionArgs) =>
        listApprovals(ctx.deps, ctx.viewer, { workspaceId: task.workspaceId, taskId: task.id, statuses: args.statuses ?? null }, page),
      ),
  }),
  ledgerByDay: t.field({
    type: [LedgerDayRef],
    args: { days: t.arg.int({ required: false, defaultValue: 30 }) },
    resolve: (task, args, ctx) => ledgerByDay(ctx.deps, ctx.viewer, { workspaceId: task.workspaceId, taskId: task.id, days: args.days }),
  }),
  autonomy: t.field({ type: AutonomyLevelEnum, nullable: true, description: "Override of the workspace's autonomy level.", resolve: (task) => task.autonomy }),
  perActionFreeCents: t.exposeInt('perActionFreeCents', { nullable: true }),
  budgetCapCents: t.exposeInt('budgetCapCents', { nullable: true }),
  approvedBudgetCents: t.exposeInt('approvedBudgetCents', { nullable: true }),
}));
