// Keyset page over a workspace's tasks, newest first. Cursor = (createdAt, id), opaque to clients.
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Deps } from '../../deps.ts';
import { badInput } from '../../errors.ts';
import type { TaskStatus } from '../../domain/task-status.ts';

export type TaskPage = { after?: string | null; before?: string | null; limit: number; inverted: boolean };

export function encodeTaskCursor(t: { createdAt: Date; id: string }): string {
  return `${t.createdAt.toISOString()}|${t.id}`;
}

function decode(c: string): { createdAt: Date; id: string } {
  const [iso, id] = c.split('|');
  const createdAt = new Date(iso ?? '');
  if (!id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(createdAt.getTime())) throw badInput('Invalid cursor');
  return { createdAt, id };
}

export async function listTasks(
  deps: Deps,
  viewer: Viewer,
  workspaceId: string,
  page: TaskPage,
  filter: { statuses?: TaskStatus[] | null } = {},
) {
  requireWorkspace(viewer, workspaceId, 'read');
  // "after" walks towards older tasks, "before" towards newer ones.
  const older = (c: { createdAt: Date; id: string }) => ({
    OR: [{ createdAt: { lt: c.createdAt } }, { createdAt: c.createdAt, id: { lt: c.id } }],
  });
  const newer = (c: { createdAt: Date; id: string }) => ({
    OR: [{ createdAt: { gt: c.createdAt } }, { createdAt: c.createdAt, id: { gt: c.id } }],
  });
  const and = [];
  if (page.after) and.push(older(decode(page.after)));
  if (page.before) and.push(newer(decode(page.before)));
  const rows = await deps.prisma.task.findMany({
    where: { workspaceId, ...(filter.statuses?.length ? { status: { in: filter.statuses } } : {}), AND: and },
    orderBy: page.inverted
      ? [{ createdAt: 'asc' }, { id: 'asc' }]
      : [{ createdAt: 'desc' }, { id: 'desc' }],
    take: page.limit,
  });
  return rows;
}
