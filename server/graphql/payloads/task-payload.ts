import type { Task } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';
import { TaskRef } from '../refs.ts';

export const TaskPayload = builder.objectRef<{ task: Task }>('TaskPayload').implement({
  description: 'A task after a change.',
  fields: (t) => ({ task: t.field({ type: TaskRef, description: 'The task as it is now.', resolve: (p) => p.task }) }),
});
