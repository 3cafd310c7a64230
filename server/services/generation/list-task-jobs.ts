// A task's generation jobs (status, progress, cost, result files), oldest first. The caller has
// loaded the task through the viewer's visibility rules first.
import type { Viewer } from '../../auth/viewer.ts';
import type { GenerationJob } from '../../db/generated/client.ts';
import type { Deps } from '../deps.ts';

export function listTaskJobs(deps: Deps, _viewer: Viewer, taskId: string): Promise<GenerationJob[]> {
  return deps.prisma.generationJob.findMany({ where: { taskId }, orderBy: { createdAt: 'asc' } });
}
