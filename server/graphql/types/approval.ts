// An approval: a decision a person takes. Two kinds of rows stand behind it — a task's approval card
// (plan, price, pick, irreversible action) and a question about a message of the person's main
// thread (kind QUESTION, formerly called a card) — answered alike with resolveApproval.
import type { Card } from '../../db/generated/client.ts';
import { isQuestion, loadApprovals, type ApprovalOrQuestion } from '../../services/approvals/load-approvals.ts';
import { listForgetWorks, publicAction } from '../../services/memory/works.ts';
import { builder } from '../builder.ts';
import { ActorKindEnum } from '../enums/actor-kind.ts';
import { ApprovalKindEnum } from '../enums/approval-kind.ts';
import { ApprovalStatusEnum } from '../enums/approval-status.ts';
import { globalId } from '../ids.ts';
import { publicJson, publicText } from '../public-ids.ts';
import { ApprovalOptionRef, ApprovalReasonRef, ApprovalRef, ForgetWorkRef, MessageRef, TaskRef, UserRef, type ApprovalOption, type ApprovalReason, type CardOption } from '../refs.ts';

/** A question's options as approval options: each sends the message to a task, or makes a new one. */
const questionOptions = (q: Card): ApprovalOption[] => ((q.options ?? []) as CardOption[]).map((o) => ({ id: o.id, label: o.label, objectId: null, taskId: o.taskId ?? null }));

builder.node(ApprovalRef, {
  description:
    'A decision only a person takes (resolveApproval, with the approve scope): a plan, a price, a pick among candidates, an irreversible action, or a question about where a message of your main thread goes.',
  id: { resolve: (a) => a.id },
  loadManyWithoutCache: (ids, ctx) => loadApprovals(ctx.deps, ctx.viewer, ids),
  fields: (t) => ({
    kind: t.field({ type: ApprovalKindEnum, description: 'What is to be decided.', resolve: (a) => (isQuestion(a) ? 'QUESTION' : a.kind) }),
    status: t.field({
      type: ApprovalStatusEnum,
      description: 'Where the decision is; every status but PENDING is final.',
      resolve: (a) => (isQuestion(a) ? (a.status === 'OPEN' ? 'PENDING' : 'APPROVED') : a.status),
    }),
    title: t.string({ description: 'What is asked, in one line (in the language of the task or the message).', resolve: (a) => publicText(isQuestion(a) ? a.prompt : a.title) }),
    reasons: t.field({
      type: [ApprovalReasonRef],
      description: 'Why a person must decide: the thresholds crossed, or that it cannot be undone. Empty for a question.',
      resolve: (a) => (isQuestion(a) ? [] : ((a.reasons as ApprovalReason[]) ?? [])),
    }),
    quoteCents: t.int({ nullable: true, description: 'The price quoted for the action (or the plan budget), in US cents; null when nothing is priced.', resolve: (a) => (isQuestion(a) ? null : a.quoteCents) }),
    action: t.field({
      type: 'JSON',
      description:
        'What is to be decided, as data: { type, … } — GENERATE { kind, prompt, toolCallId }, PLAN { version, steps, toolCallId }, CHECKPOINT { … }, DELETE_OBJECT { objectId, version }, FORGET_MEMORY { memoryId, … }, FORGET_EVIDENCE { evidenceId, … }, ROUTE_MESSAGE { messageId, question } for a question. Ids in it are global ids.',
      resolve: (a) => (isQuestion(a) ? { type: 'ROUTE_MESSAGE', messageId: globalId('Message', a.messageId), question: a.kind } : publicJson(publicAction(a.action))),
    }),
    works: t.field({
      type: [ForgetWorkRef],
      description:
        'For a forgetting: the works whose current title or content contained a value being forgotten. After it is approved its requester may remove the value from those they choose (redactWorks); nothing changes without that. Empty otherwise.',
      resolve: (a, _x, ctx) => (isQuestion(a) ? [] : listForgetWorks(ctx.deps, ctx.viewer, a)),
    }),
    outcome: t.field({
      type: 'JSON',
      nullable: true,
      description: 'What running an approved irreversible action did (e.g. what a forgetting cleared); null otherwise. Ids in it are global ids.',
      resolve: (a) => (isQuestion(a) ? null : publicJson(a.outcome)),
    }),
    note: t.string({ nullable: true, description: 'What the person said with the decision, or why it was cancelled or set aside.', resolve: (a) => (isQuestion(a) ? null : a.note && publicText(a.note)) }),
    options: t.field({
      type: [ApprovalOptionRef],
      description: 'What to choose from: candidates of a pick (each with its picture), or where a question sends the message. Empty when there is nothing to choose.',
      resolve: (a) => (isQuestion(a) ? questionOptions(a) : ((a.options as ApprovalOption[] | null) ?? [])),
    }),
    choice: t.exposeString('choice', { nullable: true, description: 'The id of the option chosen, once decided.' }),
    requestedBy: t.field({
      type: ActorKindEnum,
      description: 'Who asked: the agent, a person (deleting, forgetting) or the system (a question of the main thread, a runtime checkpoint).',
      resolve: (a) => (isQuestion(a) ? 'SYSTEM' : a.requestedByKind),
    }),
    resolvedBy: t.field({
      type: UserRef,
      nullable: true,
      description: 'The person who decided.',
      resolve: (a, _x, ctx) => {
        const by = isQuestion(a) ? a.answeredById : a.resolvedById;
        return by ? ctx.loaders.user.load(by) : null;
      },
    }),
    task: t.field({
      type: TaskRef,
      nullable: true,
      description: 'The task that asks; null for a question of the main thread and for deletions and forgettings outside a task.',
      resolve: (a, _x, ctx) => (!isQuestion(a) && a.taskId ? ctx.loaders.task.load(a.taskId) : null),
    }),
    message: t.field({
      type: MessageRef,
      nullable: true,
      description: 'For a question: the message of your main thread it is about (the answer routes it). Null for other kinds.',
      resolve: (a, _x, ctx) => (isQuestion(a) ? ctx.loaders.message.load(a.messageId) : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was asked.' }),
    resolvedAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true, description: 'When it was decided (or cancelled, or set aside).' }),
  }),
});
