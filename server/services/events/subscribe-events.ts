// Opening event streams: authorise first (so a refused subscription fails at subscribe time with a
// typed error), then hand back a stream factory for the hub.
import { defaultWorkspaceId, requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { decodeWorkspaceCursor } from '../../channel/cursor.ts';
import type { EventRow } from '../../channel/types.ts';
import type { Deps } from '../deps.ts';
import { badInput } from '../../errors.ts';
import { loadTaskFor } from '../tasks/load-task.ts';

type StreamFactory = (signal: AbortSignal) => AsyncGenerator<EventRow>;

export async function subscribeTaskEvents(deps: Deps, viewer: Viewer, taskId: string, after: number): Promise<StreamFactory> {
  if (!Number.isInteger(after) || after < 0) throw badInput('after must be a non-negative integer', { argument: 'after' });
  const task = await loadTaskFor(deps.prisma, viewer, taskId, 'read');
  return (signal) => deps.hub.taskStream(task.id, task.workspaceId, after, signal);
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
): Promise<StreamFactory> {
  const { ws, from } = await workspaceStart(deps, viewer, workspaceId, after);
  return (signal) => deps.hub.workspaceStream(ws, from, signal);
}

export type FeedItem = { kind: 'started'; workspaceId: string; position: number; resumed: boolean } | EventRow;

/**
 * The workspace feed: first the exact position the stream starts after (the head at opening when no
 * cursor is given), then every event after it. A client that stores that cursor and resumes from it
 * misses nothing, so "live from now" is exact and resumable.
 */
export async function subscribeWorkspaceFeed(deps: Deps, viewer: Viewer, workspaceId: string | null, after: string | null) {
  const { ws, from, resumed } = await workspaceStart(deps, viewer, workspaceId, after);
  return async function* feed(signal: AbortSignal): AsyncGenerator<FeedItem> {
    yield { kind: 'started', workspaceId: ws, position: from, resumed };
    yield* deps.hub.workspaceStream(ws, from, signal);
  };
}
