import { builder } from '../builder.ts';

// The runtime's transitions (domain/task-status.ts), upper-cased for the API.
export const TaskTransitionEnum = builder.enumType('TaskTransition', {
  description: 'What moved a task from one status to another.',
  values: {
    START: { description: 'A worker began a turn.' },
    WAIT: { description: 'It waits on a generation or on a person.' },
    REQUEUE: { description: 'More work to do: the next turn is scheduled.' },
    PAUSE: { description: 'A person paused it.' },
    RESUME: { description: 'A person resumed it.' },
    CANCEL: { description: 'A person cancelled it.' },
    COMPLETE: { description: 'The work is done.' },
    FAIL: { description: 'It failed.' },
    EXCEED_BUDGET: { description: 'It would have spent more than its budget cap.' },
  } as const,
});
