// What a task and a workspace cost so far, for the API. The caller has loaded the task or the
// workspace through the viewer's visibility rules first.
import type { Viewer } from '../../auth/viewer.ts';
import type { Deps } from '../deps.ts';
import { taskCost, workspaceCostSummary, type TaskCost } from './task-cost.ts';

export type { TaskCost };
export type WorkspaceCostSummary = Awaited<ReturnType<typeof workspaceCostSummary>>;

export const getTaskCost = (deps: Deps, _viewer: Viewer, taskId: string): Promise<TaskCost> => taskCost(deps.prisma, taskId);

export const getWorkspaceCostSummary = (deps: Deps, _viewer: Viewer, workspaceId: string): Promise<WorkspaceCostSummary> =>
  workspaceCostSummary(deps.prisma, workspaceId);
