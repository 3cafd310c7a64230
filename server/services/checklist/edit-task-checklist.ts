// A person's checklist edit, answered with the task as the edit left it (its checklist version and
// approved plan).
import type { Viewer } from '../../auth/viewer.ts';
import type { Task } from '../../db/generated/client.ts';
import type { Deps } from '../deps.ts';
import { editChecklist } from './edit-checklist.ts';

export async function editTaskChecklist(deps: Deps, viewer: Viewer, input: Parameters<typeof editChecklist>[2]): Promise<Task> {
  await editChecklist(deps, viewer, input);
  return deps.prisma.task.findUniqueOrThrow({ where: { id: input.taskId } });
}
