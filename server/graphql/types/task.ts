import type { ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { isTerminal } from '../../domain/task-status.ts';
import { WITHHELD_TEXT } from '../../domain/sealing.ts';
import { listApprovals } from '../../services/approvals/list-approvals.ts';
import { getTaskChecklist } from '../../services/checklist/read-checklist.ts';
import { getTaskCost } from '../../services/costs/get-costs.ts';
import { eventFilterArgs } from '../inputs/event-filter-args.ts';
import { listTaskEvents, MAX_EVENT_PAGE } from '../../services/events/list-task-events.ts';
import { listTaskJobs } from '../../services/generation/list-task-jobs.ts';
import { encodeKeyset } from '../../services/keyset.ts';
import { ledgerByDay } from '../../services/ledger/ledger-by-day.ts';
import { taskLedger } from '../../services/ledger/task-ledger.ts';
import { lineIdOf } from '../../services/tasks/task-line.ts';
import { getForkPoint, listTaskForks } from '../../services/tasks/task-forks.ts';
import { listChangeNotices } from '../../services/objects/change-notices.ts';
import { builder } from '../builder.ts';
import { InputPolicyEnum } from '../enums/input-policy.ts';
import { planImpact } from '../../services/checklist/plan-impact.ts';
import { ApprovalStatusEnum } from '../enums/approval-status.ts';
import { AutonomyLevelEnum } from '../enums/autonomy-level.ts';
import { TaskKindEnum } from '../enums/task-kind.ts';
import { TaskStatusEnum } from '../enums/task-status.ts';
import { publicText } from '../public-ids.ts';
import { loadAll } from '../loaders.ts';
import { cursorConnection } from '../pagination.ts';
import {
  ApprovalRef,
  ChangeNoticeRef,
  ChecklistRef,
  GenerationJobRef,
  InboxItemRef,
  LedgerDayRef,
  LedgerSummaryRef,
  TaskCostRef,
  TaskForkPointRef,
  TaskLineRef,
  TaskRef,
  TurnRef,
  UserRef,
  WorkspaceObjectRef,
  WorkspaceRef,
  WithheldRef,
  PlanImpactRef,
} from '../refs.ts';
import { TaskEventConnectionRef } from './task-event-connection.ts';

builder.node(TaskRef, {
  description: 'An addressable run of work. Its events form an ordered, resumable log.',
  id: { resolve: (t) => t.id },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => ctx.loaders.task.load(id))),
  fields: (t) => ({
    title: t.exposeString('title', { description: 'What the task is called.' }),
    goal: t.exposeString('goal', { description: 'What the work is for, as asked (the title when no goal was given).' }),
    summary: t.string({
      description: 'What was delivered, in words, once the task says so (empty before). Results are linked as [name](object:<id>) with global ids.',
      resolve: (task) => publicText(task.summary),
    }),
    withheld: t.field({
      type: WithheldRef,
      nullable: true,
      description:
        'Set when some of what the task wrote (its summary, decisions, tool calls, checklist, jobs, cards, events) is withheld: ' +
        'it was derived while a memory was in its context, and that memory was forgotten. Those texts read as a fixed marker.',
      resolve: async (task, _a, ctx) => ((await ctx.loaders.taskWithheld.load(task.id)) ? { reason: 'FORGOTTEN_MEMORY' as const, message: WITHHELD_TEXT } : null),
    }),
    status: t.field({ type: TaskStatusEnum, description: 'Where the task is.', resolve: (task) => task.status }),
    kind: t.field({ type: TaskKindEnum, description: 'Work that lasts, or a quick one-off.', resolve: (task) => task.kind }),
    language: t.exposeString('language', { nullable: true, description: "The language of the user's own words (ISO 639-1)." }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true, description: 'When it was archived (left the task list); null while it is not.' }),
    mergedInto: t.field({
      type: TaskRef,
      nullable: true,
      description: 'The task this one was merged into (mergeTasks); null otherwise.',
      resolve: (task, _a, ctx) => (task.mergedIntoId ? ctx.loaders.task.load(task.mergedIntoId) : null),
    }),
    round: t.exposeInt('round', {
      description: 'Which round of its line of work this task is: 1 for the first. A change asked for after a round ended starts the next round.',
    }),
    previousRound: t.field({
      type: TaskRef,
      nullable: true,
      description: 'The round this one continues (null on a first round).',
      resolve: (task, _a, ctx) => (task.previousRoundId ? ctx.loaders.task.load(task.previousRoundId) : null),
    }),
    nextRound: t.field({
      type: TaskRef,
      nullable: true,
      description: 'The round that continued this one, once a change was asked for after it ended.',
      resolve: async (task, _a, ctx) => (await ctx.loaders.lineRounds.load(lineIdOf(task))).find((r) => r.previousRoundId === task.id) ?? null,
    }),
    rounds: t.field({
      type: [TaskRef],
      description: "Every round of the task's line of work, first to latest (just this task while it has no other round).",
      resolve: async (task, _a, ctx) => {
        const rounds = await ctx.loaders.lineRounds.load(lineIdOf(task));
        return rounds.length ? rounds : [task];
      },
    }),
    line: t.field({
      type: TaskLineRef,
      description: 'The line of work this task is a round of.',
      resolve: async (task, _a, ctx) => {
        const rounds = await ctx.loaders.lineRounds.load(lineIdOf(task));
        return { id: lineIdOf(task), rounds: rounds.length ? rounds : [task] };
      },
    }),
    forkedFrom: t.field({
      type: TaskForkPointRef,
      nullable: true,
      description: 'Where this task was forked from (forkTask): the task and the step it goes on from in a different direction; null when it is not a fork.',
      resolve: (task, _a, ctx) => getForkPoint(ctx.deps, ctx.viewer, task),
    }),
    forks: t.field({
      type: [TaskRef],
      description: 'The forks made from this task (forkTask), oldest first: each goes on from one of its steps in a different direction.',
      resolve: (task, _a, ctx) => listTaskForks(ctx.deps, ctx.viewer, task),
    }),
    statusReason: t.string({
      nullable: true,
      description: 'Why it is in its status, in words (e.g. what it waits for, why it stopped); null when there is nothing to say.',
      resolve: (task) => (task.statusReason === null ? null : publicText(task.statusReason)),
    }),
    inputPolicy: t.field({ type: InputPolicyEnum, description: 'What a message that arrives while the task runs does (a message may bring its own): QUEUE, INTERRUPT, REJECT or ROLLBACK.', resolve: (task) => task.inputPolicy }),
    isTerminal: t.boolean({ description: 'True once it reached a terminal status (COMPLETED, FAILED, CANCELLED, BUDGET_EXCEEDED).', resolve: (task) => isTerminal(task.status) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When its row last changed.' }),
    endedAt: t.expose('endedAt', { type: 'DateTime', nullable: true, description: 'When it reached its terminal status.' }),
    lastEventSeq: t.exposeInt('lastEventSeq', { description: 'Seq of the newest event; events are numbered 1..lastEventSeq.' }),
    workspace: t.field({
      type: WorkspaceRef,
      description: 'The workspace it belongs to.',
      resolve: (task, _a, ctx) => ctx.loaders.workspace.load(task.workspaceId).then((w) => w!),
    }),
    createdBy: t.field({
      type: UserRef,
      nullable: true,
      description: 'The person who created it (or whose message did); null for tasks the system made.',
      resolve: (task, _a, ctx) => (task.createdById ? ctx.loaders.user.load(task.createdById) : null),
    }),
    turns: t.field({
      type: [TurnRef],
      description: 'The execution journal: turns, their steps and tool calls.',
      resolve: (task, _a, ctx) => ctx.loaders.turnsByTask.load(task.id),
    }),
    jobs: t.field({
      type: [GenerationJobRef],
      description: 'Generation jobs of the task (status, progress, cost, result files).',
      resolve: (task, _a, ctx) => listTaskJobs(ctx.deps, ctx.viewer, task.id),
    }),
    ledger: t.field({
      type: LedgerSummaryRef,
      description: 'Its money: held, charged, released, outstanding.',
      resolve: (task, _a, ctx) => taskLedger(ctx.deps, ctx.viewer, task.id),
    }),
    inbox: t.field({
      type: [InboxItemRef],
      description: 'Messages and signals delivered to the task, and which step read them.',
      resolve: (task, _a, ctx) => ctx.loaders.inboxByTask.load(task.id),
    }),
    events: t.field({
      type: TaskEventConnectionRef,
      description: `Events with seq > after, oldest first (at most ${MAX_EVENT_PAGE}). The polling fallback of taskEvents.`,
      args: {
        after: t.arg.int({ required: false, description: 'Return events after this seq (default 0).' }),
        first: t.arg.int({ required: false, description: 'Page size, 1..500 (default 100).' }),
        ...eventFilterArgs(t.arg),
      },
      resolve: async (task, args, ctx) => {
        const page = await listTaskEvents(ctx.deps, ctx.viewer, task.id, args);
        return {
          edges: page.events.map((e) => ({ cursor: String(e.seq), node: e })),
          pageInfo: {
            hasNextPage: page.hasNextPage,
            hasPreviousPage: (args.after ?? 0) > 0,
            startCursor: page.events[0] ? String(page.events[0].seq) : null,
            endCursor: page.events.at(-1) ? String(page.events.at(-1)!.seq) : null,
          },
        };
      },
    }),
    checklist: t.field({ type: ChecklistRef, nullable: true, description: 'Its execution checklist; null before it planned.', resolve: (task, _a, ctx) => getTaskChecklist(ctx.deps, ctx.viewer, task) }),
    planImpact: t.field({
      type: PlanImpactRef,
      description: "What changing these steps (a new character, a revised scene) would do to the rest of the plan, before anything is spent: the results made from them that would be made again and their price, the steps that simply wait, and what stays valid. Unknown step ids are BAD_USER_INPUT.",
      args: { changed: t.arg.stringList({ required: true, description: 'The steps that would change (ChecklistItem.id).' }) },
      resolve: (task, args, ctx) => planImpact(ctx.deps, ctx.viewer, task, args.changed),
    }),
    planApprovedVersion: t.exposeInt('planApprovedVersion', { nullable: true, description: 'The checklist version whose plan a person approved.' }),
    approvals: t.connection({
      type: ApprovalRef,
      description: "The task's approval cards, newest first.",
      args: { statuses: t.arg({ type: [ApprovalStatusEnum], required: false, description: 'Only approvals in these statuses (e.g. [PENDING]).' }) },
      resolve: (task, args, ctx) =>
        cursorConnection({ args, toCursor: encodeKeyset, defaultSize: 20, maxSize: 100 }, (page: ResolveCursorConnectionArgs) =>
          listApprovals(ctx.deps, ctx.viewer, { workspaceId: task.workspaceId, taskId: task.id, statuses: args.statuses ?? null }, page),
        ),
    }),
    ledgerByDay: t.field({
      type: [LedgerDayRef],
      description: 'Its money per UTC day, newest first.',
      args: { days: t.arg.int({ required: false, defaultValue: 30, description: 'How many days back, today included (1..366).' }) },
      resolve: (task, args, ctx) => ledgerByDay(ctx.deps, ctx.viewer, { workspaceId: task.workspaceId, taskId: task.id, days: args.days }),
    }),
    autonomy: t.field({ type: AutonomyLevelEnum, nullable: true, description: "Override of the workspace's autonomy level.", resolve: (task) => task.autonomy }),
    perActionFreeCents: t.exposeInt('perActionFreeCents', { nullable: true, description: "Override of the workspace's confirmation-free amount per paid action, in US cents." }),
    budgetCapCents: t.exposeInt('budgetCapCents', { nullable: true, description: 'Hard cap, in US cents: no paid action may cross it; at it the task ends as BUDGET_EXCEEDED or waits for a person to raise it (WorkspaceSettings.atBudgetCap).' }),
    approvedBudgetCents: t.exposeInt('approvedBudgetCents', { nullable: true, description: 'The plan budget a person approved, in US cents.' }),
    cost: t.field({ type: TaskCostRef, description: 'What it cost so far: model calls and generations.', resolve: (task, _a, ctx) => getTaskCost(ctx.deps, ctx.viewer, task.id) }),
    objects: t.field({
      type: [WorkspaceObjectRef],
      description: 'Workspace objects the task references (read, wrote, created or generated).',
      resolve: async (task, _a, ctx) => loadAll(ctx.loaders.object, await ctx.loaders.objectIdsByTask.load(task.id)),
    }),
    changeNotices: t.field({
      type: [ChangeNoticeRef],
      args: { unconsumedOnly: t.arg.boolean({ required: false, description: 'Only those no step has read yet.' }) },
      description: 'Changes by others to objects the task has seen, oldest first.',
      resolve: (task, args, ctx) => listChangeNotices(ctx.deps, ctx.viewer, { taskId: task.id, unconsumedOnly: args.unconsumedOnly }),
    }),
  }),
});
