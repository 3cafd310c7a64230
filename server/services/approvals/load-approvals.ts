// Approval cards by id for node(id): cards of other workspaces load as null.
import { opened } from '../../store/sealing/open.ts';
import { visibleWorkspaceIds } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Approval } from '../../db/generated/client.ts';
import { inKeyOrder } from '../batch.ts';
import type { Deps } from '../deps.ts';

export async function loadApprovals(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(Approval | null)[]> {
  // A task's card may be sealed (store/sealing): read opened, or withheld once forgotten.
  return inKeyOrder(ids, await opened(deps.prisma, await deps.prisma.approval.findMany({ where: { id: { in: [...ids] }, workspaceId: { in: visibleWorkspaceIds(viewer) } } })));
}
