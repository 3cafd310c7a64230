import { notFound } from '../../errors.ts';
import { loadTaskFor } from '../../services/tasks/load-task.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { TaskRef } from './task.ts';
import { ViewerRef } from './viewer.ts';
import { WorkspaceRef } from './workspace.ts';

builder.queryType({
  fields: (t) => ({
    viewer: t.field({ type: ViewerRef, resolve: (_r, _a, ctx) => ctx.viewer }),
    workspace: t.field({
      type: WorkspaceRef,
      args: { id: t.arg.id({ required: true }) },
      resolve: async (_r, args, ctx) => {
        const w = await ctx.loaders.workspace.load(parseGlobalId(String(args.id), 'Workspace', 'id'));
        if (!w) throw notFound('Workspace');
        return w;
      },
    }),
    task: t.field({
      type: TaskRef,
      args: { id: t.arg.id({ required: true }) },
      resolve: (_r, args, ctx) =>
        loadTaskFor(ctx.deps.prisma, ctx.viewer, parseGlobalId(String(args.id), 'Task', 'id'), 'read'),
    }),
  }),
});
