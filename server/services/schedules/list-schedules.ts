// Reading schedules: a workspace's live ones (every member), by id for node(id) and the API's
// loaders (another workspace's, or a deleted one, loads as null), their recent runs, and the
// schedule whose run started a task.
import { requireWorkspace, visibleWorkspaceIds } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { listLiveSchedules, liveSchedulesByIds, recentRunsOf, runOfTask, type ScheduleRow, type ScheduleRunRow } from '../../store/schedules.ts';
import { inKeyOrder, uuidsOf } from '../batch.ts';
import type { Deps } from '../deps.ts';

export type { ScheduleRow, ScheduleRunRow };

export function listSchedules(deps: Deps, viewer: Viewer, workspaceId: string): Promise<ScheduleRow[]> {
  requireWorkspace(viewer, workspaceId, 'read');
  return listLiveSchedules(deps.prisma, workspaceId);
}

export async function loadSchedules(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(ScheduleRow | null)[]> {
  return inKeyOrder(ids, await liveSchedulesByIds(deps.prisma, uuidsOf(ids), visibleWorkspaceIds(viewer)));
}

/** Each schedule's recent runs, newest first (schedules the viewer cannot see have none). */
export async function loadRecentRuns(deps: Deps, viewer: Viewer, scheduleIds: readonly string[]): Promise<ScheduleRunRow[][]> {
  const visible = await liveSchedulesByIds(deps.prisma, uuidsOf(scheduleIds), visibleWorkspaceIds(viewer));
  const runs = await recentRunsOf(deps.prisma, visible.map((s) => s.id));
  return scheduleIds.map((id) => runs.filter((r) => r.scheduleId === id));
}

/** The live schedule whose run started the task, when the viewer may see it. */
export async function scheduleOfTask(deps: Deps, viewer: Viewer, task: { scheduleRunId: string | null; workspaceId: string }): Promise<ScheduleRow | null> {
  if (!task.scheduleRunId || !visibleWorkspaceIds(viewer).includes(task.workspaceId)) return null;
  const run = await runOfTask(deps.prisma, task.scheduleRunId);
  return run && !run.schedule.deletedAt && run.schedule.workspaceId === task.workspaceId ? run.schedule : null;
}
