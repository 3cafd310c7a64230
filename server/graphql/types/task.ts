import type { ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { isTerminal } from '../../domain/task-status.ts';
import { WITHHELD_TEXT } from '../../domain/sealing.ts';
import { listApprovals } from '../../services/approvals/list-approvals.ts';
import { getTaskChecklist } from '../../services/checklist/read-checklist.ts';
import { getTaskCost } from '../../services/costs/get-costs.ts';
import { listTaskEvents, MAX_EVENT_PAGE } from '../../services/events/list-task-events.ts';
import { listTaskJobs } from '../../services/generation/list-task-jobs.ts';
import { encodeKeyset } from '../../services/keyset.ts';
import { ledgerByDay } from '../../services/ledger/ledger-by-day.ts';
import { taskLedger } from '../../services/ledger/task-ledger.ts';
import { lineIdOf } from '../../services/tasks/task-line.ts';
import { listChangeNotices } from '../../services/objects/change-notices.ts';
import { builder } from '../builder.ts';
import { ApprovalStatusEnum } from '../enums/approval-status.ts';
import { AutonomyLevelEnum } from '../enums/autonomy-level.ts';
import { TaskStatusEnum } from '../enums/task-status.ts';
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
  TaskLineRef,
  TaskRef,
  TurnRef,
  UserRef,
  WorkspaceObjectRef,
  WorkspaceRef,
  WithheldRef,
} from '../refs.ts';
import { TaskEventConnectionRef } from './task-event-connection.ts';

builder.node(TaskRef, {
  description: 'An addressable run of work. Its events form an ordered, resumable log.',
  id: { resolve: (t) => t.id },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => ctx.loaders.task.load(id))),
  fields: (t) => ({
    title: t.exposeString('title'),
    goal: t.exposeString('goal'),
    summary: t.exposeString('summary'),
    withheld: t.field({
      type: WithheldRef,
      nullable: true,
      description:
        'Set when some of what the task wrote (its summary, decisions, tool calls, checklist, jobs, cards, events) is withheld: ' +
        'it was derived while a memory was in its context, and that memory was forgotten. Those texts read as a fixed marker.',
      resolve: async (task, _a, ctx) => ((await ctx.loaders.taskWithheld.load(task.id)) ? { reason: 'FORGOTTEN_MEMORY' as const, message: WITHHELD_TEXT } : null),
    }),
    status: t.field({ type: TaskStatusEnum, resolve: (task) => task.status }),
    kind: t.exposeString('kind', { description: 'PERSISTENT, or LIGHTWEIGHT (one quick generation, kept out of the task list until promoted)' }),
    language: t.exposeString('language', { nullable: true, description: "The language of the user's own words (ISO 639-1)." }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true }),
    mergedInto: t.field({
      type: TaskRef,
      nullable: true,
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
    statusReason: t.exposeString('statusReason', { nullable: true }),
    isTerminal: t.boolean({ resolve: (task) => isTerminal(task.status) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    endedAt: t.expose('endedAt', { type: 'DateTime', nullable: true }),
    lastEventSeq: t.exposeInt('lastEventSeq', { description: 'Seq of the newest event; events are numbered 1..lastEventSeq.' }),
    workspace: t.field({
      type: WorkspaceRef,
      resolve: (task, _a, ctx) => ctx.loaders.workspace.load(task.workspaceId).then((w) => w!),
    }),
    createdBy: t.field({
      type: UserRef,
      nullable: true,
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
    checklist: t.field({ type: ChecklistRef, nullable: true, resolve: (task, _a, ctx) => getTaskChecklist(ctx.deps, ctx.viewer, task) }),
    planApprovedVersion: t.exposeInt('planApprovedVersion', { nullable: true, description: 'The checklist version whose plan a person approved.' }),
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
    cost: t.field({ type: TaskCostRef, resolve: (task, _a, ctx) => getTaskCost(ctx.deps, ctx.viewer, task.id) }),
    objects: t.field({
      type: [WorkspaceObjectRef],
      description: 'Workspace objects the task references (read, wrote, created or generated).',
      resolve: async (task, _a, ctx) => loadAll(ctx.loaders.object, await ctx.loaders.objectIdsByTask.load(task.id)),
    }),
    changeNotices: t.field({
      type: [ChangeNoticeRef],
      args: { unconsumedOnly: t.arg.boolean({ required: false }) },
      description: 'Changes by others to objects the task has seen, oldest first.',
      resolve: (task, args, ctx) => listChangeNotices(ctx.deps, ctx.viewer, { taskId: task.id, unconsumedOnly: args.unconsumedOnly }),
    }),
  }),
});
