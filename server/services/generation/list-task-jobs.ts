// A task's generation jobs (status, progress, cost, result files), oldest first. The caller has
// loaded the task through the viewer's visibility rules first.
import type { Viewer } from '../../auth/viewer.ts';
import type { GenerationJob } from '../../db/generated/client.ts';
import type { Deps } from '../deps.ts';
import { opened } from '../../store/sealing/open.ts';

export async function listTaskJobs(deps: Deps, _viewer: Viewer, taskId: string): Promise<GenerationJob[]> {
  // Prompts a task wrote with memory in its context are sealed: opened here, withheld once forgotten.
  return opened(deps.prisma, await deps.prisma.generationJob.findMany({ where: { taskId }, orderBy: { createdAt: 'asc' } }));
}
