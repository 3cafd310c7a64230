// Which objects a workspace holds, and which tasks reference which objects (no task holds a copy).
import type { Viewer } from '../../auth/viewer.ts';
import type { ObjectKind, WorkspaceObject } from '../../db/generated/client.ts';
import type { Deps } from '../deps.ts';

/** A page of a workspace's objects, most recently changed first. The caller checked the workspace. */
export function listWorkspaceObjects(
  deps: Deps,
  _viewer: Viewer,
  input: { workspaceId: string; kind?: ObjectKind | null; includeDeleted?: boolean | null; limit: number; offset: number },
): Promise<WorkspaceObject[]> {
  return deps.prisma.workspaceObject.findMany({
    where: { workspaceId: input.workspaceId, ...(input.kind ? { kind: input.kind } : {}), ...(input.includeDeleted ? {} : { deletedAt: null }) },
    orderBy: [{ updatedAt: 'desc' }, { id: 'asc' }],
    skip: input.offset,
    take: input.limit,
  });
}

// Ids only: the API loads the objects and tasks themselves through its per-request loaders, which
// apply the viewer's visibility and batch the rows of every parent into one query.

/** For each task, the ids of the objects it references (read, wrote, created or generated), oldest first. */
export async function loadObjectIdsOfTasks(deps: Deps, _viewer: Viewer, taskIds: readonly string[]): Promise<string[][]> {
  const refs = await deps.prisma.taskObjectRef.findMany({ where: { taskId: { in: [...taskIds] } }, orderBy: { createdAt: 'asc' } });
  return taskIds.map((id) => refs.filter((r) => r.taskId === id).map((r) => r.objectId));
}

/** For each object, the ids of the tasks that reference it, oldest reference first. */
export async function loadTaskIdsOfObjects(deps: Deps, _viewer: Viewer, objectIds: readonly string[]): Promise<string[][]> {
  const refs = await deps.prisma.taskObjectRef.findMany({ where: { objectId: { in: [...objectIds] } }, orderBy: { createdAt: 'asc' } });
  return objectIds.map((id) => refs.filter((r) => r.objectId === id).map((r) => r.taskId));
}
