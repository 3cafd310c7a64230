import type { ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import type { Workspace } from '../../db/generated/client.ts';
import { encodeTaskCursor, listTasks } from '../../services/tasks/list-tasks.ts';
import { getMainThread } from '../../services/threads/get-main-thread.ts';
import { builder } from '../builder.ts';
import { cursorConnection } from '../pagination.ts';
import { RoleEnum, TaskStatusEnum } from './enums.ts';
import { TaskRef } from './task.ts';
import { ThreadRef } from './thread.ts';

export const WorkspaceRef = builder.objectRef<Workspace>('Workspace');

builder.node(WorkspaceRef, {
  id: { resolve: (w) => w.id },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => ctx.loaders.workspace.load(id))),
  fields: (t) => ({
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    viewerRole: t.field({
      type: RoleEnum,
      resolve: (w, _a, ctx) => ctx.viewer.memberships.get(w.id)!,
    }),
    tasks: t.connection({
      type: TaskRef,
      description: 'Tasks, newest first.',
      args: {
        statuses: t.arg({ type: [TaskStatusEnum], required: false }),
        includeLightweight: t.arg.boolean({ required: false, description: 'Also list lightweight (one-off) tasks.' }),
        includeArchived: t.arg.boolean({ required: false }),
      },
      resolve: (w, args, ctx) =>
        cursorConnection(
          { args, toCursor: encodeTaskCursor, defaultSize: 20, maxSize: 100 },
          (page: ResolveCursorConnectionArgs) =>
            listTasks(ctx.deps, ctx.viewer, w.id, page, {
              statuses: args.statuses ?? null,
              includeLightweight: args.includeLightweight ?? false,
              includeArchived: args.includeArchived ?? false,
            }),
        ),
    }),
    mainThread: t.field({
      type: ThreadRef,
      description: "The viewer's main thread in this workspace.",
      resolve: (w, _a, ctx) => getMainThread(ctx.deps, ctx.viewer, w.id),
    }),
  }),
});
