// Shared workspace objects by id for the API: only objects of the viewer's workspaces (deleted
// ones too: their history stays readable); any other id is null.
import { visibleWorkspaceIds } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { WorkspaceObject } from '../../db/generated/client.ts';
import { inKeyOrder, uuidsOf } from '../batch.ts';
import type { Deps } from '../deps.ts';

// A generation's result becomes the object with this id; the API links a job to it by the id alone.
export { assetIdForJob } from '../../store/objects/create-asset.ts';

export async function loadObjects(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(WorkspaceObject | null)[]> {
  return inKeyOrder(
    ids,
    await deps.prisma.workspaceObject.findMany({ where: { id: { in: uuidsOf(ids) }, workspaceId: { in: visibleWorkspaceIds(viewer) } } }),
  );
}

/**
 * An object as it is now, read afresh rather than from the request's cache: a write's payload
 * shows the row the write left, even when an earlier field of the same request loaded the object.
 * The write (or delete request) that returned the id checked the viewer's access.
 */
export async function getObjectNow(deps: Deps, _viewer: Viewer, objectId: string): Promise<WorkspaceObject> {
  return (await deps.prisma.workspaceObject.findUnique({ where: { id: objectId } }))!;
}
