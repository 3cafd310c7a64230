// The polling fallback: a page of a task's events after a seq (for a fork, its whole history: the
// events it shares with the task it was forked from, then its own).
import type { Viewer } from '../../auth/viewer.ts';
import { toRow } from '../../channel/event-feed.ts';
import { sequenceEvents } from '../../channel/sequencer.ts';
import type { EventRow } from '../../channel/types.ts';
import type { Deps } from '../deps.ts';
import { badInput } from '../../errors.ts';
import { loadTaskFor } from '../tasks/load-task.ts';
import { hasUnsequenced, historyPage } from '../../store/tasks/forks.ts';
import { typeSet, type EventFilter } from './event-filter.ts';

export const MAX_EVENT_PAGE = 500;

export async function listTaskEvents(
  deps: Deps,
  viewer: Viewer,
  taskId: string,
  args: { after?: number | null; first?: number | null } & EventFilter,
): Promise<{ events: EventRow[]; hasNextPage: boolean; lastSeq: number }> {
  const after = args.after ?? 0;
  const first = args.first ?? 100;
  if (!Number.isInteger(after) || after < 0) throw badInput('after must be a non-negative integer', { argument: 'after' });
  if (!Number.isInteger(first) || first < 1 || first > MAX_EVENT_PAGE) {
    throw badInput(`first must be between 1 and ${MAX_EVENT_PAGE}`, { argument: 'first' });
  }
  const task = await loadTaskFor(deps.prisma, viewer, taskId, 'read');
  const types = typeSet(args);
  if (task.forkedFromId && task.forkedAtSeq !== null) {
    // A fork's history: the events it shares with the task it was forked from (up to its fork
    // point, read from that task's log), then its own, in one gap-free seq space.
    if (await hasUnsequenced(deps.prisma, task, Math.max(after, task.forkedAtSeq))) await sequenceEvents(deps.prisma, [task.workspaceId]);
    const page = await historyPage(deps.prisma, task, after, first, types ? [...types] : null);
    return { events: page.rows, hasNextPage: page.more, lastSeq: task.lastEventSeq };
  }
  const read = () =>
    deps.prisma.taskEvent.findMany({
      where: { workspaceId: task.workspaceId, taskId, seq: { gt: after }, ...(types ? { type: { in: [...types] } } : {}) },
      orderBy: { seq: 'asc' },
      take: first + 1,
    });
  let rows = await read();
  // Events committed a moment ago may not have their workspace position yet (their cursor is
  // made from it): sequence the workspace and read again.
  if (rows.some((r) => r.position === null)) {
    await sequenceEvents(deps.prisma, [task.workspaceId]);
    rows = await read();
  }
  const events = rows.slice(0, first).map(toRow);
  return { events, hasNextPage: rows.length > first, lastSeq: task.lastEventSeq };
}
