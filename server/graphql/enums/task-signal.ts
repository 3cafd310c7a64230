import { builder } from '../builder.ts';

export const TaskSignalEnum = builder.enumType('TaskSignal', {
  description: 'Signals a person can send to a task (signalTask), applied at its next safe boundary.',
  values: {
    PAUSE: { description: 'Stop after the current step; nothing is lost.' },
    RESUME: { description: 'Go on after a pause.' },
    CANCEL: { description: 'End the task (CANCELLED); running generations are cancelled at the provider. Idempotent.' },
    REVISE: { description: 'A change of direction (text): its next step reads it through the inbox.' },
    ADD_CONTEXT: { description: 'More to know (text): its next step reads it through the inbox.' },
  } as const,
});
