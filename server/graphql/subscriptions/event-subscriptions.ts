import { subscribeTaskEvents, subscribeWorkspaceEvents, subscribeWorkspaceFeed, type FeedItem } from '../../services/events/subscribe-events.ts';
import { builder } from '../builder.ts';
import { withFreshLoaders } from './fresh-loaders.ts';
import { parseGlobalId, parseOptionalGlobalId } from '../ids.ts';
import { TaskEventRef } from '../types/task-event.ts';

type Started = Extract<FeedItem, { kind: 'started' }>;
const FeedStartedRef = builder.objectRef<Started>('FeedStarted');
builder.objectType(FeedStartedRef, {
  description:
    'The first item of a feed: the exact position it starts after. Store `cursor`: resuming from it (or from any later event\'s cursor) misses nothing.',
  fields: (t) => ({
    cursor: t.exposeString('cursor'),
    resumed: t.exposeBoolean('resumed', { description: 'True when the feed was opened with a cursor; false when it starts at the live head.' }),
  }),
});

const WorkspaceFeedItemRef = builder.unionType('WorkspaceFeedItem', {
  types: [FeedStartedRef, TaskEventRef],
  resolveType: (item) => ('kind' in item && item.kind === 'started' ? FeedStartedRef : TaskEventRef),
});

builder.subscriptionType({
  fields: (t) => ({
    taskEvents: t.field({
      type: TaskEventRef,
      description:
        'Every stored event of the task with seq > after (default 0), then live ones: in order, with no gap and no duplicate.',
      args: { taskId: t.arg.id({ required: true }), after: t.arg.int({ required: false }) },
      subscribe: (_r, args, ctx) =>
        subscribeTaskEvents(ctx.deps, ctx.viewer, parseGlobalId(String(args.taskId), 'Task', 'taskId'), args.after ?? 0, ctx.signal),
      resolve: (e, _a, ctx) => withFreshLoaders(e, ctx),
    }),
    workspaceEvents: t.field({
      type: TaskEventRef,
      description:
        'Every event of the workspace after the opaque cursor (from TaskEvent.cursor), then live ones: in order, no gap, no duplicate. ' +
        'Without a cursor, only new events (use workspaceFeed to learn the exact starting cursor). workspaceId may be omitted when the cursor or the credential implies it.',
      args: { workspaceId: t.arg.id({ required: false }), after: t.arg.string({ required: false }) },
      subscribe: (_r, args, ctx) =>
        subscribeWorkspaceEvents(ctx.deps, ctx.viewer, parseOptionalGlobalId(args.workspaceId, 'Workspace', 'workspaceId') ?? null, args.after ?? null, ctx.signal),
      resolve: (e, _a, ctx) => withFreshLoaders(e, ctx),
    }),
    workspaceFeed: t.field({
      type: WorkspaceFeedItemRef,
      description:
        'Like workspaceEvents, but first a FeedStarted item with the exact cursor the feed starts after — the live head when no cursor is given — then every event after it.',
      args: { workspaceId: t.arg.id({ required: false }), after: t.arg.string({ required: false }) },
      subscribe: (_r, args, ctx) =>
        subscribeWorkspaceFeed(ctx.deps, ctx.viewer, parseOptionalGlobalId(args.workspaceId, 'Workspace', 'workspaceId') ?? null, args.after ?? null, ctx.signal),
      resolve: (e, _a, ctx) => withFreshLoaders(e, ctx),
    }),
  }),
});
