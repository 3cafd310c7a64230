import { requireWorkspace, type Access } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';

/** Loads a task the viewer may access; a task of another workspace is NOT_FOUND. */
export async function loadTaskFor(db: Db, viewer: Viewer, taskId: string, access: Access) {
  const task = /^[0-9a-f-]{36}$/i.test(taskId) ? await db.task.findUnique({ where: { id: taskId } }) : null;
  if (!task) throw notFound('Task');
  requireWorkspace(viewer, task.workspaceId, access, 'Task');
  return task;
}
