// The polling fallback of workspaceEvents: a page of a workspace's events after a cursor, in
// position order — what a webhook receiver reads to fill a gap, or a client that cannot hold a
// subscription open.
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { decodeWorkspaceCursor } from '../../channel/cursor.ts';
import { readWorkspaceEvents } from '../../channel/event-feed.ts';
import { sequenceEvents } from '../../channel/sequencer.ts';
import type { EventRow } from '../../channel/types.ts';
import type { Deps } from '../deps.ts';
import { badInput } from '../../errors.ts';
import { typeSet, type EventFilter } from './event-filter.ts';
import { MAX_EVENT_PAGE } from './list-task-events.ts';

export async function listWorkspaceEvents(
  deps: Deps,
  viewer: Viewer,
  workspaceId: string,
  args: { after?: string | null; first?: number | null } & EventFilter,
): Promise<{ events: EventRow[]; hasNextPage: boolean }> {
  const first = args.first ?? 100;
  if (!Number.isInteger(first) || first < 1 || first > MAX_EVENT_PAGE) {
    throw badInput(`first must be between 1 and ${MAX_EVENT_PAGE}`, { argument: 'first' });
  }
  const cursor = args.after ? decodeWorkspaceCursor(args.after) : null;
  if (cursor && cursor.workspaceId !== workspaceId) throw badInput('The cursor belongs to another workspace', { argument: 'after' });
  requireWorkspace(viewer, workspaceId, 'read');
  // Committed events get their positions from the sequencer; sequence first so a page read right
  // after a commit sees it (and nothing later can take a position below what this page returns).
  await sequenceEvents(deps.prisma, [workspaceId]);
  const types = typeSet(args);
  const rows = await readWorkspaceEvents(deps.prisma, workspaceId, cursor?.position ?? 0, first + 1, types ? [...types] : null);
  return { events: rows.slice(0, first), hasNextPage: rows.length > first };
}
