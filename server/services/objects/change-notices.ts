// Changes by others to objects a task has seen, oldest first. The caller has loaded the task
// through the viewer's visibility rules first.
import type { Viewer } from '../../auth/viewer.ts';
import type { ChangeNotice } from '../../db/generated/client.ts';
import type { Deps } from '../deps.ts';

export function listChangeNotices(deps: Deps, _viewer: Viewer, input: { taskId: string; unconsumedOnly?: boolean | null }): Promise<ChangeNotice[]> {
  return deps.prisma.changeNotice.findMany({
    where: { taskId: input.taskId, ...(input.unconsumedOnly ? { consumedAt: null } : {}) },
    orderBy: [{ createdAt: 'asc' }, { toVersion: 'asc' }],
  });
}
