// Opening an object change stream: authorise (READ in the workspace; another workspace is
// NOT_FOUND) and decode the cursor first, so a refused subscription fails at subscribe time; then
// hand back the live stream, ready for a transport (see subscribe-events.ts).
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { decodeWorkspaceCursor, encodeWorkspaceCursor } from '../../channel/cursor.ts';
import type { ObjectChangeRow } from '../../channel/object-feed.ts';
import { closableStream } from '../../channel/stream.ts';
import type { Deps } from '../deps.ts';
import { badInput } from '../../errors.ts';

export type ObjectChangeEvent = ObjectChangeRow & { cursor: string };

export async function subscribeObjectChanges(
  deps: Deps,
  viewer: Viewer,
  workspaceId: string,
  after: string | null,
  /** The transport's own "client went away" signal, when it has one (SSE). */
  transport?: AbortSignal,
): Promise<AsyncIterableIterator<ObjectChangeEvent>> {
  requireWorkspace(viewer, workspaceId, 'read');
  const cursor = after ? decodeWorkspaceCursor(after) : null;
  if (cursor && cursor.workspaceId !== workspaceId) throw badInput('The cursor belongs to another workspace', { argument: 'after' });
  const from = cursor ? cursor.position : await deps.objectFeed.head(workspaceId);
  return closableStream(async function* (signal: AbortSignal): AsyncGenerator<ObjectChangeEvent> {
    for await (const c of deps.objectFeed.stream(workspaceId, from, signal)) {
      yield { ...c, cursor: encodeWorkspaceCursor(workspaceId, c.position) };
    }
  }, transport);
}
