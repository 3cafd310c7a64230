import { builder } from '../builder.ts';

export const TurnStatusEnum = builder.enumType('TurnStatus', {
  description: 'Where a turn (one scheduled run of the task worker) is.',
  values: {
    QUEUED: { description: 'Waiting for a worker.' },
    RUNNING: { description: 'A worker holds it by lease.' },
    COMPLETED: { description: 'It did its part (see outcome).' },
    FAILED: { description: 'It failed (the task failed with it).' },
    STOPPED: { description: 'Stopped: the task was paused or cancelled, or its budget cap was reached.' },
  } as const,
});
