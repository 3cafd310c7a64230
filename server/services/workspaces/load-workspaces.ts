// Workspaces by id for the API's loaders: only the viewer's own load; any other id is null, so
// node(id) and nested fields cannot reach another workspace.
import { visibleWorkspaceIds } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Workspace } from '../../db/generated/client.ts';
import { inKeyOrder, uuidsOf } from '../batch.ts';
import type { Deps } from '../deps.ts';

export async function loadWorkspaces(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(Workspace | null)[]> {
  const ws = visibleWorkspaceIds(viewer);
  return inKeyOrder(ids, await deps.prisma.workspace.findMany({ where: { id: { in: uuidsOf(ids).filter((i) => ws.includes(i)) } } }));
}
