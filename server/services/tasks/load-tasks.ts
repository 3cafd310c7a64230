// Tasks by id for the API's loaders: tasks of other workspaces load as null.
import { visibleWorkspaceIds } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Task } from '../../db/generated/client.ts';
import { inKeyOrder, uuidsOf } from '../batch.ts';
import type { Deps } from '../deps.ts';

export async function loadTasks(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(Task | null)[]> {
  return inKeyOrder(ids, await deps.prisma.task.findMany({ where: { id: { in: uuidsOf(ids) }, workspaceId: { in: visibleWorkspaceIds(viewer) } } }));
}
