import { closableStream } from '../../channel/hub.ts';
import { subscribeTaskEvents, subscribeWorkspaceEvents } from '../../services/events/subscribe-events.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { TaskEventRef } from '../types/task-event.ts';

builder.subscriptionType({
  fields: (t) => ({
    taskEvents: t.field({
      type: TaskEventRef,
      description:
        'Every stored event of the task with seq > after (default 0), then live ones: in order, with no gap and no duplicate.',
      args: { taskId: t.arg.id({ required: true }), after: t.arg.int({ required: false }) },
      subscribe: async (_r, args, ctx) => {
        const taskId = parseGlobalId(String(args.taskId), 'Task', 'taskId');
        const open = await subscribeTaskEvents(ctx.deps, ctx.viewer, taskId, args.after ?? 0);
        return closableStream(open, ctx.signal);
      },
      resolve: (e) => e,
    }),
    workspaceEvents: t.field({
      type: TaskEventRef,
      description:
        'Every event of the workspace after the opaque cursor (from TaskEvent.cursor), then live ones: in order, no gap, no duplicate. ' +
        'Without a cursor, only new events. workspaceId may be omitted when the cursor or the credential implies it.',
      args: { workspaceId: t.arg.id({ required: false }), after: t.arg.string({ required: false }) },
      subscribe: async (_r, args, ctx) => {
        const workspaceId = args.workspaceId ? parseGlobalId(String(args.workspaceId), 'Workspace', 'workspaceId') : null;
        const open = await subscribeWorkspaceEvents(ctx.deps, ctx.viewer, workspaceId, args.after ?? null);
        return closableStream(open, ctx.signal);
      },
      resolve: (e) => e,
    }),
  }),
});
