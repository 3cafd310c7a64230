import type { Task } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';
import { TaskRef } from '../refs.ts';

export const TaskLimitsPayload = builder.objectRef<{ task: Task }>('TaskLimitsPayload').implement({
  fields: (t) => ({ task: t.field({ type: TaskRef, resolve: (p) => p.task }) }),
});
