import type { ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { listApprovals } from '../../services/approvals/list-approvals.ts';
import { getWorkspaceCostSummary } from '../../services/costs/get-costs.ts';
import { encodeKeyset } from '../../services/keyset.ts';
import { ledgerByDay } from '../../services/ledger/ledger-by-day.ts';
import { listMemories, memoryProfile } from '../../services/memory/browse-memories.ts';
import { listWorkspaceObjects } from '../../services/objects/list-objects.ts';
import { getSettings } from '../../services/settings/update-settings.ts';
import { encodeTaskCursor, listTasks } from '../../services/tasks/list-tasks.ts';
import { getMainThread } from '../../services/threads/get-main-thread.ts';
import { builder } from '../builder.ts';
import { ApprovalStatusEnum } from '../enums/approval-status.ts';
import { MemoryKindEnum } from '../enums/memory-kind.ts';
import { MemoryScopeEnum } from '../enums/memory-scope.ts';
import { ObjectKindEnum } from '../enums/object-kind.ts';
import { RoleEnum } from '../enums/role.ts';
import { TaskStatusEnum } from '../enums/task-status.ts';
import { cursorConnection, offsetConnection } from '../pagination.ts';
import {
  ApprovalRef,
  LedgerDayRef,
  MemoryProfileRef,
  MemoryRef,
  TaskRef,
  ThreadRef,
  WorkspaceCostSummaryRef,
  WorkspaceObjectRef,
  WorkspaceRef,
  WorkspaceSettingsRef,
} from '../refs.ts';

builder.node(WorkspaceRef, {
  description: 'A workspace: its members share tasks, objects, memories and settings.',
  id: { resolve: (w) => w.id },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => ctx.loaders.workspace.load(id))),
  fields: (t) => ({
    name: t.exposeString('name', { description: 'What the workspace is called.' }),
    slug: t.exposeString('slug', { description: 'Its short unique handle (used by the CLI).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    viewerRole: t.field({
      type: RoleEnum,
      description: "The caller's role in it.",
      resolve: (w, _a, ctx) => ctx.viewer.memberships.get(w.id)!,
    }),
    tasks: t.connection({
      type: TaskRef,
      description: 'Tasks, newest first; a line of work once, as its latest round.',
      args: {
        statuses: t.arg({ type: [TaskStatusEnum], required: false, description: 'Only tasks in these statuses.' }),
        includeLightweight: t.arg.boolean({ required: false, description: 'Also list lightweight (one-off) tasks.' }),
        includeArchived: t.arg.boolean({ required: false, description: 'Also list archived tasks.' }),
        allRounds: t.arg.boolean({
          required: false,
          description: 'List every round of a line of work; by default a line is listed once, as its latest round (Task.rounds has the others).',
        }),
      },
      resolve: (w, args, ctx) =>
        cursorConnection(
          { args, toCursor: encodeTaskCursor, defaultSize: 20, maxSize: 100 },
          (page: ResolveCursorConnectionArgs) =>
            listTasks(ctx.deps, ctx.viewer, w.id, page, {
              statuses: args.statuses ?? null,
              includeLightweight: args.includeLightweight ?? false,
              includeArchived: args.includeArchived ?? false,
              allRounds: args.allRounds ?? false,
            }),
        ),
    }),
    mainThread: t.field({
      type: ThreadRef,
      description: "The viewer's main thread in this workspace.",
      resolve: (w, _a, ctx) => getMainThread(ctx.deps, ctx.viewer, w.id),
    }),
    objects: t.connection({
      type: WorkspaceObjectRef,
      description: 'Objects of the shared workspace, most recently changed first.',
      args: {
        kind: t.arg({ type: ObjectKindEnum, required: false, description: 'Only objects of this kind.' }),
        includeDeleted: t.arg.boolean({ required: false, description: 'Also list deleted objects (read-only, history kept).' }),
      },
      resolve: (w, args, ctx) =>
        offsetConnection({ args, defaultSize: 20, maxSize: 100 }, ({ limit, offset }) =>
          listWorkspaceObjects(ctx.deps, ctx.viewer, { workspaceId: w.id, kind: args.kind, includeDeleted: args.includeDeleted, limit, offset }),
        ),
    }),
    memories: t.connection({
      type: MemoryRef,
      description: "Long-term memories the viewer may see (the workspace's workspace and task memories, and their own user memories), newest first.",
      args: {
        kind: t.arg({ type: MemoryKindEnum, required: false, description: 'Only memories of this kind.' }),
        scope: t.arg({ type: MemoryScopeEnum, required: false, description: 'Only memories of this scope.' }),
        subject: t.arg.string({ required: false, description: 'An exact subject key, or a prefix ending in "." (e.g. "preference.").' }),
        query: t.arg.string({ required: false, description: 'Words that must all occur in the memory (word prefixes).' }),
        includeSuperseded: t.arg.boolean({
          required: false,
          description: 'Also list inferences a stated memory overrides, and match filters against superseded versions too.',
        }),
      },
      resolve: (w, args, ctx) =>
        cursorConnection({ args, toCursor: encodeKeyset, defaultSize: 20, maxSize: 100 }, (page: ResolveCursorConnectionArgs) =>
          listMemories(
            ctx.deps,
            ctx.viewer,
            { workspaceId: w.id, kind: args.kind, scope: args.scope, subject: args.subject, query: args.query, includeSuperseded: args.includeSuperseded },
            page,
          ),
        ),
    }),
    memoryProfile: t.field({
      type: MemoryProfileRef,
      nullable: true,
      description: "The viewer's current profile snapshot in this workspace.",
      resolve: (w, _a, ctx) => memoryProfile(ctx.deps, ctx.viewer, w.id),
    }),
    settings: t.field({ type: WorkspaceSettingsRef, description: 'When paid actions need a person: the three separate settings.', resolve: (w, _a, ctx) => getSettings(ctx.deps, ctx.viewer, w.id) }),
    approvals: t.connection({
      type: ApprovalRef,
      description: "The workspace's approvals (of its tasks, deletions and forgettings), newest first. Questions of main threads are not listed: each is on its message (Message.approval).",
      args: { statuses: t.arg({ type: [ApprovalStatusEnum], required: false, description: 'Only approvals in these statuses (e.g. [PENDING]).' }) },
      resolve: (w, args, ctx) =>
        cursorConnection({ args, toCursor: encodeKeyset, defaultSize: 20, maxSize: 100 }, (page: ResolveCursorConnectionArgs) =>
          listApprovals(ctx.deps, ctx.viewer, { workspaceId: w.id, statuses: args.statuses ?? null }, page),
        ),
    }),
    ledgerByDay: t.field({
      type: [LedgerDayRef],
      description: 'Money per UTC day, newest first.',
      args: { days: t.arg.int({ required: false, defaultValue: 30, description: 'How many days back, today included (1..366).' }) },
      resolve: (w, args, ctx) => ledgerByDay(ctx.deps, ctx.viewer, { workspaceId: w.id, days: args.days }),
    }),
    costSummary: t.field({ type: WorkspaceCostSummaryRef, description: 'Spending on model calls and generations, and the cost per completed task.', resolve: (ws, _a, ctx) => getWorkspaceCostSummary(ctx.deps, ctx.viewer, ws.id) }),
  }),
});
