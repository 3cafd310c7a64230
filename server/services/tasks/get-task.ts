// One task by id for reading; a task of another workspace is NOT_FOUND.
import type { Viewer } from '../../auth/viewer.ts';
import type { Deps } from '../deps.ts';
import { loadTaskFor } from './load-task.ts';

export const getTask = (deps: Deps, viewer: Viewer, taskId: string) => loadTaskFor(deps.prisma, viewer, taskId, 'read');
