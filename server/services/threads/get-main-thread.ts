// The viewer's one main thread in a workspace, created on first use.
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Deps } from '../deps.ts';

export async function getMainThread(deps: Deps, viewer: Viewer, workspaceId: string) {
  requireWorkspace(viewer, workspaceId, 'read');
  return deps.prisma.thread.upsert({
    where: { workspaceId_userId: { workspaceId, userId: viewer.userId } },
    create: { workspaceId, userId: viewer.userId },
    update: {},
  });
}
