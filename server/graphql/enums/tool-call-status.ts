import { builder } from '../builder.ts';

export const ToolCallStatusEnum = builder.enumType('ToolCallStatus', {
  description: 'Where a tool call of the journal is.',
  values: {
    PENDING: { description: 'Decided and committed, not started.' },
    STARTED: { description: 'Running (or interrupted: resumed by its safety).' },
    DONE: { description: 'Finished with a result.' },
    FAILED: { description: 'Finished with an error.' },
    SKIPPED: { description: 'Never run: a message with the INTERRUPT or ROLLBACK input policy arrived before it started; the model decided again with the message.' },
    OUTCOME_UNKNOWN: { description: 'Started by a worker that died, and not safe to run again: handed back to the model to check first.' },
  } as const,
});
