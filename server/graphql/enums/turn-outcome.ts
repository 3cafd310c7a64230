import { builder } from '../builder.ts';

// How runtime/turn-end.ts ends a turn, upper-cased for the API.
export const TurnOutcomeEnum = builder.enumType('TurnOutcome', {
  description: 'How an agent turn ended.',
  values: {
    COMPLETE: { description: 'The task is done.' },
    REQUEUE: { description: 'More to do: another turn follows.' },
    SUSPEND: { description: 'The task waits on a generation or a person.' },
    PAUSE: { description: 'The task was paused.' },
    FAIL: { description: 'The task failed.' },
    BUDGET: { description: 'The task reached its budget cap.' },
  } as const,
});
