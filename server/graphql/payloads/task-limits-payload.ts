import type { Task } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';
import { TaskRef } from '../refs.ts';

export const TaskLimitsPayload = builder.objectRef<{ task: Task }>('TaskLimitsPayload').implement({
  description: "A task after a change of its limits.",
  fields: (t) => ({ task: t.field({ type: TaskRef, description: 'The task with its limits as they are now.', resolve: (p) => p.task }) }),
});
