import { builder } from '../builder.ts';

export const RouteOutcomeEnum = builder.enumType('RouteOutcome', {
  description: 'Where a message of the main thread went.',
  values: {
    ANSWER: { description: 'Answered in the thread; no task involved (or a lasting fact remembered).' },
    LIGHTWEIGHT_TASK: { description: 'A quick one-off task, kept out of the task list until promoted.' },
    EXISTING_TASK: { description: 'Delivered to a task (or to the next round of finished work).' },
    NEW_TASK: { description: 'A new task made from the message.' },
    CLARIFY: { description: 'Unclear: a QUESTION approval asks where it goes; the answer routes it.' },
  } as const,
});
