import type { Task } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';
import { TaskRef } from '../refs.ts';

export const TaskPayload = builder.objectRef<{ task: Task }>('TaskPayload').implement({
  fields: (t) => ({ task: t.field({ type: TaskRef, resolve: (p) => p.task }) }),
});
