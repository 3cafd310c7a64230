import { builder } from '../builder.ts';

export const TaskSignalEnum = builder.enumType('TaskSignal', {
  description:
    'Signals a person can send to a task. PAUSE/RESUME/CANCEL change its state; REVISE/ADD_CONTEXT reach its next step through the inbox.',
  values: ['PAUSE', 'RESUME', 'CANCEL', 'REVISE', 'ADD_CONTEXT'] as const,
});
