import type { Task } from '../../db/generated/client.ts';
import { isTerminal } from '../../domain/task-status.ts';
import { listTaskEvents, MAX_EVENT_PAGE } from '../../services/events/list-task-events.ts';
import { builder } from '../builder.ts';
import { TaskStatusEnum } from './enums.ts';
import { ledgerSummary } from '../../generation/jobs.ts';
import { GenerationJobRef, LedgerSummaryRef } from './generation.ts';
import { InboxItemRef, TurnRef } from './journal.ts';
import { TaskEventConnectionRef } from './task-event.ts';
import { UserRef } from './user.ts';
import { WorkspaceRef } from './workspace.ts';

export const TaskRef = builder.objectRef<Task>('Task');

builder.node(TaskRef, {
  description: 'An addressable run of work. Its events form an ordered, resumable log.',
  id: { resolve: (t) => t.id },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => ctx.loaders.task.load(id))),
  fields: (t) => ({
    title: t.exposeString('title'),
    goal: t.exposeString('goal'),
    summary: t.exposeString('summary'),
    status: t.field({ type: TaskStatusEnum, resolve: (task) => task.status }),
    kind: t.exposeString('kind', { description: 'PERSISTENT, or LIGHTWEIGHT (one quick generation, kept out of the task list until promoted)' }),
    language: t.exposeString('language', { nullable: true, description: "The language of the user's own words (ISO 639-1)." }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true }),
    mergedInto: t.field({
      type: TaskRef,
      nullable: true,
      resolve: (task, _a, ctx) => (task.mergedIntoId ? ctx.loaders.task.load(task.mergedIntoId) : null),
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
      resolve: (task, _a, ctx) => ctx.deps.prisma.generationJob.findMany({ where: { taskId: task.id }, orderBy: { createdAt: 'asc' } }),
    }),
    ledger: t.field({
      type: LedgerSummaryRef,
      resolve: (task, _a, ctx) => ledgerSummary(ctx.deps.prisma, { taskId: task.id }),
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
  }),
});
