// Reading follow-ups: a task's (Task.followUps, batched per request) and by id (node(id)). Rows of
// workspaces the viewer cannot see are not returned: they load as misses.
import { visibleWorkspaceIds } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { followUpsByIds, followUpsOfTasks, type FollowUpRow } from '../../store/follow-ups.ts';
import { inKeyOrder, uuidsOf } from '../batch.ts';
import type { Deps } from '../deps.ts';

export type { FollowUpRow };

/** Each task's follow-ups, soonest wake first. */
export async function loadFollowUpsOfTasks(deps: Deps, viewer: Viewer, taskIds: readonly string[]): Promise<FollowUpRow[][]> {
  const rows = await followUpsOfTasks(deps.prisma, uuidsOf(taskIds), visibleWorkspaceIds(viewer));
  return taskIds.map((id) => rows.filter((r) => r.taskId === id));
}

export async function loadFollowUps(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(FollowUpRow | null)[]> {
  return inKeyOrder(ids, await followUpsByIds(deps.prisma, uuidsOf(ids), visibleWorkspaceIds(viewer)));
}
