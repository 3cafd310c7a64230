// Users by id for the API's loaders: only people who share a visible workspace with the viewer.
import { visibleWorkspaceIds } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { User } from '../../db/generated/client.ts';
import { inKeyOrder, uuidsOf } from '../batch.ts';
import type { Deps } from '../deps.ts';

export async function loadUsers(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(User | null)[]> {
  return inKeyOrder(
    ids,
    await deps.prisma.user.findMany({ where: { id: { in: uuidsOf(ids) }, memberships: { some: { workspaceId: { in: visibleWorkspaceIds(viewer) } } } } }),
  );
}
