// Keyset page over a workspace's tasks, newest first. Cursor = (createdAt, id), opaque to clients.
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Deps } from '../deps.ts';
import type { TaskStatus } from '../../domain/task-status.ts';
import { afterKeyset, beforeKeyset, decodeKeyset, encodeKeyset } from '../keyset.ts';

export type TaskPage = { after?: string | null; before?: string | null; limit: number; inverted: boolean };

export const encodeTaskCursor = encodeKeyset;

export async function listTasks(
  deps: Deps,
  viewer: Viewer,
  workspaceId: string,
  page: TaskPage,
  filter: { statuses?: TaskStatus[] | null; includeLightweight?: boolean; includeArchived?: boolean; allRounds?: boolean } = {},
) {
  requireWorkspace(viewer, workspaceId, 'read');
  // Newest first: "after" walks towards older tasks, "before" towards newer ones.
  const and = [];
  if (page.after) and.push(beforeKeyset(decodeKeyset(page.after)));
  if (page.before) and.push(afterKeyset(decodeKeyset(page.before, 'before')));
  const rows = await deps.prisma.task.findMany({
    where: {
      workspaceId,
      // A set of statuses: repeated values mean nothing (and a list of thousands costs the query).
      ...(filter.statuses?.length ? { status: { in: [...new Set(filter.statuses)] } } : {}),
      // The task list shows persistent, unarchived work unless asked otherwise.
      ...(filter.includeLightweight ? {} : { kind: 'PERSISTENT' as const }),
      ...(filter.includeArchived ? {} : { archivedAt: null }),
      // A line of work is listed once, as its latest round (the earlier rounds have a next round).
      ...(filter.allRounds ? {} : { nextRound: { is: null } }),
      AND: and,
    },
    orderBy: page.inverted
      ? [{ createdAt: 'asc' }, { id: 'asc' }]
      : [{ createdAt: 'desc' }, { id: 'desc' }],
    take: page.limit,
  });
  return rows;
}
