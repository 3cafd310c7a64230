import { builder } from '../builder.ts';

export const ScheduleKindEnum = builder.enumType('ScheduleKind', {
  description: 'What a schedule does each time it runs.',
  values: {
    MESSAGE: { description: "Sends its text to its creator's main thread as their message, routed like any message (to a running task, a new task, or a question)." },
    TASK: { description: 'Starts a new task with its text as the goal, created by its creator, with its own approvals and the schedule\'s budget cap.' },
  } as const,
});
