import { subscribeTaskEvents, subscribeWorkspaceEvents, subscribeWorkspaceFeed, type FeedItem } from '../../services/events/subscribe-events.ts';
import { builder } from '../builder.ts';
import { withFreshLoaders } from './fresh-loaders.ts';
import { eventFilterArgs } from '../inputs/event-filter-args.ts';
import { parseGlobalId, parseOptionalGlobalId } from '../ids.ts';
import { TaskEventRef } from '../types/task-event.ts';
import { EVENT_OBJECT_REFS, eventTypeName } from '../types/task-event-kinds.ts';
import { isEventType } from '../../domain/event-catalog.ts';
import type { EventRow } from '../../services/events/event-view.ts';

type Started = Extract<FeedItem, { kind: 'started' }>;
const FeedStartedRef = builder.objectRef<Started>('FeedStarted');
builder.objectType(FeedStartedRef, {
  description:
    'The first item of a feed: the exact position it starts after. Store `cursor`: resuming from it (or from any later event\'s cursor) misses nothing.',
  fields: (t) => ({
    cursor: t.exposeString('cursor', { description: 'The position the feed starts after: store it, and pass it as after to resume.' }),
    resumed: t.exposeBoolean('resumed', { description: 'True when the feed was opened with a cursor; false when it starts at the live head.' }),
  }),
});

const WorkspaceFeedItemRef = builder.unionType('WorkspaceFeedItem', {
  description: 'An item of workspaceFeed: first a FeedStarted, then every event.',
  // A union cannot hold an interface: it holds every event object type.
  types: [FeedStartedRef, ...EVENT_OBJECT_REFS.values()],
  resolveType: (item) => {
    if ('kind' in item && item.kind === 'started') return 'FeedStarted';
    const type = (item as EventRow).type;
    return eventTypeName(isEventType(type) ? type : 'NOTE');
  },
});

builder.subscriptionType({
  description: 'Live streams that resume from a cursor: replay after it, then live, with no gap and no duplicate (graphql-ws or SSE).',
  fields: (t) => ({
    taskEvents: t.field({
      type: TaskEventRef,
      description:
        'Every stored event of the task with seq > after (default 0), then live ones: in order, with no gap and no duplicate.',
      args: {
        taskId: t.arg.id({ required: true, description: 'The task (Task.id).' }),
        after: t.arg.int({ required: false, description: 'The last seq you saw (default 0: from the first event).' }),
        ...eventFilterArgs(t.arg),
      },
      subscribe: (_r, args, ctx) =>
        subscribeTaskEvents(ctx.deps, ctx.viewer, parseGlobalId(String(args.taskId), 'Task', 'taskId'), args.after ?? 0, ctx.signal, args),
      resolve: (e, _a, ctx) => withFreshLoaders(e, ctx),
    }),
    workspaceEvents: t.field({
      type: TaskEventRef,
      description:
        'Every event of the workspace after the opaque cursor (from TaskEvent.cursor), then live ones: in order, no gap, no duplicate. ' +
        'Without a cursor, only new events (use workspaceFeed to learn the exact starting cursor). workspaceId may be omitted when the cursor or the credential implies it.',
      args: {
        workspaceId: t.arg.id({ required: false, description: 'The workspace (Workspace.id); may be omitted when the cursor or the credential implies it.' }),
        after: t.arg.string({ required: false, description: 'A cursor this API handed out (TaskEvent.cursor, FeedStarted.cursor).' }),
        ...eventFilterArgs(t.arg),
      },
      subscribe: (_r, args, ctx) =>
        subscribeWorkspaceEvents(ctx.deps, ctx.viewer, parseOptionalGlobalId(args.workspaceId, 'Workspace', 'workspaceId') ?? null, args.after ?? null, ctx.signal, args),
      resolve: (e, _a, ctx) => withFreshLoaders(e, ctx),
    }),
    workspaceFeed: t.field({
      type: WorkspaceFeedItemRef,
      description:
        'Like workspaceEvents, but first a FeedStarted item with the exact cursor the feed starts after — the live head when no cursor is given — then every event after it.',
      args: {
        workspaceId: t.arg.id({ required: false, description: 'The workspace (Workspace.id); may be omitted when the cursor or the credential implies it.' }),
        after: t.arg.string({ required: false, description: 'A cursor this API handed out (TaskEvent.cursor, FeedStarted.cursor).' }),
        ...eventFilterArgs(t.arg),
      },
      subscribe: (_r, args, ctx) =>
        subscribeWorkspaceFeed(ctx.deps, ctx.viewer, parseOptionalGlobalId(args.workspaceId, 'Workspace', 'workspaceId') ?? null, args.after ?? null, ctx.signal, args),
      resolve: (e, _a, ctx) => withFreshLoaders(e, ctx),
    }),
  }),
});
