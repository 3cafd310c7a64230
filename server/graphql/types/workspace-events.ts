// Workspace.events: the polling fallback of the workspaceEvents subscription, paged by the same
// opaque workspace cursors (TaskEvent.cursor). A webhook receiver fills a gap with it.
import { listWorkspaceEvents } from '../../services/events/list-workspace-events.ts';
import { cursorOfEvent } from '../../services/events/event-view.ts';
import { MAX_EVENT_PAGE } from '../../services/events/list-task-events.ts';
import { builder } from '../builder.ts';
import { eventFilterArgs } from '../inputs/event-filter-args.ts';
import { WorkspaceRef } from '../refs.ts';
import { TaskEventConnectionRef } from './task-event-connection.ts';

builder.objectFields(WorkspaceRef, (t) => ({
  events: t.field({
    type: TaskEventConnectionRef,
    description:
      `Events of every task of the workspace after a cursor, oldest first (at most ${MAX_EVENT_PAGE} per page). ` +
      'Pass the last edge\'s cursor (or TaskEvent.cursor, or a webhook delivery\'s cursor) as after to read on: nothing is skipped or repeated. ' +
      'The polling fallback of the workspaceEvents subscription.',
    args: {
      after: t.arg.string({ required: false, description: 'A cursor this API handed out (TaskEvent.cursor); absent: from the oldest event kept.' }),
      first: t.arg.int({ required: false, description: `Page size, 1..${MAX_EVENT_PAGE} (default 100).` }),
      ...eventFilterArgs(t.arg),
    },
    resolve: async (w, args, ctx) => {
      const page = await listWorkspaceEvents(ctx.deps, ctx.viewer, w.id, args);
      const edges = page.events.map((e) => ({ cursor: cursorOfEvent(e), node: e }));
      return {
        edges,
        pageInfo: {
          hasNextPage: page.hasNextPage,
          hasPreviousPage: !!args.after,
          startCursor: edges[0]?.cursor ?? null,
          endCursor: edges.at(-1)?.cursor ?? args.after ?? null,
        },
      };
    },
  }),
}));
