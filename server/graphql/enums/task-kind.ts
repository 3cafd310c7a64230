import { builder } from '../builder.ts';

export const TaskKindEnum = builder.enumType('TaskKind', {
  description: 'Whether a task is work that lasts or a quick one-off.',
  values: {
    PERSISTENT: { description: 'Work that lasts, listed in the task list.' },
    LIGHTWEIGHT: { description: 'One quick generation, kept out of the task list until promoted (promoteTask).' },
  } as const,
});
