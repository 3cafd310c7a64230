// A task's generation jobs (status, progress, cost, result files), oldest first, and jobs by id for
// node(id). The caller of listTaskJobs has loaded the task through the viewer's visibility rules
// first; loadJobs applies them itself (jobs of other workspaces load as null).
import { visibleWorkspaceIds } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { GenerationJob } from '../../db/generated/client.ts';
import { inKeyOrder, uuidsOf } from '../batch.ts';
import type { Deps } from '../deps.ts';
import { opened } from '../../store/sealing/open.ts';

export async function listTaskJobs(deps: Deps, _viewer: Viewer, taskId: string): Promise<GenerationJob[]> {
  // Prompts a task wrote with memory in its context are sealed: opened here, withheld once forgotten.
  return opened(deps.prisma, await deps.prisma.generationJob.findMany({ where: { taskId }, orderBy: { createdAt: 'asc' } }));
}

export async function loadJobs(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(GenerationJob | null)[]> {
  const rows = await deps.prisma.generationJob.findMany({ where: { id: { in: uuidsOf(ids) }, workspaceId: { in: visibleWorkspaceIds(viewer) } } });
  return inKeyOrder(ids, await opened(deps.prisma, rows));
}
