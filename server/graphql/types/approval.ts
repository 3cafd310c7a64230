import { loadApprovals } from '../../services/approvals/load-approvals.ts';
import { listForgetWorks, publicAction } from '../../services/memory/works.ts';
import { builder } from '../builder.ts';
import { ApprovalKindEnum } from '../enums/approval-kind.ts';
import { ApprovalStatusEnum } from '../enums/approval-status.ts';
import { ApprovalOptionRef, ApprovalReasonRef, ApprovalRef, ForgetWorkRef, TaskRef, UserRef, type ApprovalOption, type ApprovalReason } from '../refs.ts';

builder.node(ApprovalRef, {
  description: 'An approval card: a decision only a person with the approve scope can take.',
  id: { resolve: (a) => a.id },
  loadManyWithoutCache: (ids, ctx) => loadApprovals(ctx.deps, ctx.viewer, ids),
  fields: (t) => ({
    kind: t.field({ type: ApprovalKindEnum, resolve: (a) => a.kind }),
    status: t.field({ type: ApprovalStatusEnum, resolve: (a) => a.status }),
    title: t.exposeString('title'),
    reasons: t.field({ type: [ApprovalReasonRef], resolve: (a) => (a.reasons as ApprovalReason[]) ?? [] }),
    quoteCents: t.exposeInt('quoteCents', { nullable: true, description: 'The price quoted for the action (or the plan budget), in cents.' }),
    action: t.field({ type: 'JSON', description: 'What is to be decided: { type, ... }.', resolve: (a) => publicAction(a.action) }),
    works: t.field({
      type: [ForgetWorkRef],
      description: "For a forgetting: the works whose current name or content contained a value being forgotten. After it is approved its requester may remove the value from those they choose (redactWorks); nothing changes without that.",
      resolve: (a, _x, ctx) => listForgetWorks(ctx.deps, ctx.viewer, a),
    }),
    outcome: t.field({ type: 'JSON', nullable: true, resolve: (a) => a.outcome }),
    note: t.exposeString('note', { nullable: true }),
    options: t.field({
      type: [ApprovalOptionRef],
      description: 'For a checkpoint: what to choose from (candidates carry the object id of their picture).',
      resolve: (a) => (a.options as ApprovalOption[] | null) ?? [],
    }),
    choice: t.exposeString('choice', { nullable: true }),
    requestedBy: t.exposeString('requestedByKind', { description: 'USER, AGENT or SYSTEM' }),
    resolvedBy: t.field({ type: UserRef, nullable: true, resolve: (a, _x, ctx) => (a.resolvedById ? ctx.loaders.user.load(a.resolvedById) : null) }),
    task: t.field({ type: TaskRef, nullable: true, resolve: (a, _x, ctx) => (a.taskId ? ctx.loaders.task.load(a.taskId) : null) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    resolvedAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true }),
  }),
});
