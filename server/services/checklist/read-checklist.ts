// A task's current checklist. The caller has loaded the task through the viewer's visibility rules
// first; a task that never had a plan costs no query.
import type { Viewer } from '../../auth/viewer.ts';
import type { Task } from '../../db/generated/client.ts';
import type { Checklist } from '../../domain/checklist.ts';
import { readChecklist } from '../../store/checklist/write-checklist.ts';
import type { Deps } from '../deps.ts';

export async function getTaskChecklist(deps: Deps, _viewer: Viewer, task: Pick<Task, 'id' | 'checklistVersion'>): Promise<Checklist | null> {
  return task.checklistVersion ? readChecklist(deps.prisma, task.id) : null;
}
