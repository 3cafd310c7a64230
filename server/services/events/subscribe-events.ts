// Opening event streams: authorise first (so a refused subscription fails at subscribe time with a
// typed error), then hand back the live stream, ready for a transport: its consumer's return()
// (unsubscribe, socket closed) or the transport's abort signal ends it at once.
import { defaultWorkspaceId, requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { decodeWorkspaceCursor, encodeWorkspaceCursor } from '../../channel/cursor.ts';
import { closableStream } from '../../channel/stream.ts';
import type { EventRow } from '../../channel/types.ts';
import type { Deps } from '../deps.ts';
import { badInput } from '../../errors.ts';
import { loadTaskFor } from '../tasks/load-task.ts';
import { historyPage, type HistoryTask } from '../../store/tasks/forks.ts';
import { filterStream, typeSet, type EventFilter } from './event-filter.ts';

export async function subscribeTaskEvents(
  deps: Deps,
  viewer: Viewer,
  taskId: string,
  after: number,
  /** The transport's own "client went away" signal, when it has one (SSE). */
  transport?: AbortSignal,
  filter?: EventFilter,
): Promise<AsyncIterableIterator<EventRow>> {
  if (!Number.isInteger(after) || after < 0) throw badInput('after must be a non-negative integer', { argument: 'after' });
  const task = await loadTaskFor(deps.prisma, viewer, taskId, 'read');
  const types = typeSet(filter);
  if (task.forkedFromId && task.forkedAtSeq !== null) {
    return closableStream((signal) => filterStream(forkStream(deps, task, after, signal), types), transport);
  }
  return closableStream((signal) => filterStream(deps.hub.taskStream(task.id, task.workspaceId, after, signal), types), transport);
}

/**
 * A fork's events after `after`: the shared ones it has not seen (from the task it was forked from,
 * whose log up to the fork point never changes), then its own, replayed and live. Its own events
 * start right after the fork point, so the handoff has no gap and no duplicate.
 */
async function* forkStream(deps: Deps, task: HistoryTask, after: number, signal: AbortSignal): AsyncGenerator<EventRow> {
  const shared = task.forkedAtSeq ?? 0;
  let cursor = after;
  while (cursor < shared && !signal.aborted) {
    const page = await historyPage(deps.prisma, task, cursor, 200, null, shared);
    for (const r of page.rows) {
      if (signal.aborted) return;
      yield r;
      cursor = r.seq;
    }
    if (!page.more) break;
  }
  yield* deps.hub.taskStream(task.id, task.workspaceId, Math.max(after, shared), signal);
}

/** Where a workspace stream starts: after the cursor, or at the live head when none is given. */
async function workspaceStart(deps: Deps, viewer: Viewer, workspaceId: string | null, after: string | null) {
  const cursor = after ? decodeWorkspaceCursor(after) : null;
  if (cursor && workspaceId && cursor.workspaceId !== workspaceId) {
    throw badInput('The cursor belongs to another workspace', { argument: 'after' });
  }
  const ws = workspaceId ?? cursor?.workspaceId ?? defaultWorkspaceId(viewer);
  requireWorkspace(viewer, ws, 'read');
  const from = cursor ? cursor.position : await deps.hub.readHead(ws);
  return { ws, from, resumed: !!cursor };
}

export async function subscribeWorkspaceEvents(
  deps: Deps,
  viewer: Viewer,
  workspaceId: string | null,
  after: string | null,
  transport?: AbortSignal,
  filter?: EventFilter,
): Promise<AsyncIterableIterator<EventRow>> {
  const { ws, from } = await workspaceStart(deps, viewer, workspaceId, after);
  const types = typeSet(filter);
  return closableStream((signal) => filterStream(deps.hub.workspaceStream(ws, from, signal), types), transport);
}

export type FeedItem = { kind: 'started'; workspaceId: string; position: number; cursor: string; resumed: boolean } | EventRow;

/**
 * The workspace feed: first the exact position the stream starts after (the head at opening when no
 * cursor is given), then every event after it. A client that stores that cursor and resumes from it
 * misses nothing, so "live from now" is exact and resumable.
 */
export async function subscribeWorkspaceFeed(
  deps: Deps,
  viewer: Viewer,
  workspaceId: string | null,
  after: string | null,
  transport?: AbortSignal,
  filter?: EventFilter,
): Promise<AsyncIterableIterator<FeedItem>> {
  const { ws, from, resumed } = await workspaceStart(deps, viewer, workspaceId, after);
  const types = typeSet(filter);
  return closableStream(async function* feed(signal: AbortSignal): AsyncGenerator<FeedItem> {
    yield { kind: 'started', workspaceId: ws, position: from, cursor: encodeWorkspaceCursor(ws, from), resumed };
    yield* filterStream(deps.hub.workspaceStream(ws, from, signal), types);
  }, transport);
}
