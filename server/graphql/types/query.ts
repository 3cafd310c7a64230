import { errorReasons, notFound, type ErrorReason } from '../../errors.ts';
import { getTask } from '../../services/tasks/get-task.ts';
import { builder } from '../builder.ts';
import { ErrorReasonEnum } from '../enums/error-reason.ts';
import { parseGlobalId } from '../ids.ts';
import { TaskRef, ViewerRef, WorkspaceRef } from '../refs.ts';

builder.queryType({
  description: 'Every read. Objects of workspaces the caller does not belong to do not exist for it (NOT_FOUND, or null from node).',
  fields: (t) => ({
    viewer: t.field({ type: ViewerRef, description: 'Who is calling: the user, their scopes and workspaces, and the runtime serving them.', resolve: (_r, _a, ctx) => ctx.viewer }),
    workspace: t.field({
      type: WorkspaceRef,
      description: 'A workspace the caller belongs to (NOT_FOUND otherwise).',
      args: { id: t.arg.id({ required: true, description: 'The workspace (Workspace.id).' }) },
      resolve: async (_r, args, ctx) => {
        const w = await ctx.loaders.workspace.load(parseGlobalId(String(args.id), 'Workspace', 'id'));
        if (!w) throw notFound('Workspace');
        return w;
      },
    }),
    task: t.field({
      type: TaskRef,
      description: 'A task of a workspace the caller belongs to (NOT_FOUND otherwise).',
      args: { id: t.arg.id({ required: true, description: 'The task (Task.id).' }) },
      resolve: (_r, args, ctx) => getTask(ctx.deps, ctx.viewer, parseGlobalId(String(args.id), 'Task', 'id')),
    }),
    errorReasons: t.field({
      type: [ErrorReasonEnum],
      description:
        'Every value an error\'s `extensions.reason` can take; the ErrorReason enum says what each means and which `extensions.code` it comes with.',
      resolve: () => Object.keys(errorReasons) as ErrorReason[],
    }),
  }),
});
