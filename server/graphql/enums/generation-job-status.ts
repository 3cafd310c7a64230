import { builder } from '../builder.ts';

export const GenerationJobStatusEnum = builder.enumType('GenerationJobStatus', {
  description: 'Where a generation job is at its provider. It only moves forward; SUCCEEDED, FAILED and CANCELLED are final.',
  values: {
    SUBMITTING: { description: 'Ordered (money held), not yet accepted by the provider.' },
    QUEUED: { description: 'Accepted by the provider, not started.' },
    RUNNING: { description: 'Being made (progress).' },
    SUCCEEDED: { description: 'Made: its result is a workspace object (asset), and the hold was charged.' },
    FAILED: { description: 'Not made; error says why, and the hold was released.' },
    CANCELLED: { description: 'Cancelled (the task was cancelled or changed direction); settled by the provider\'s answer.' },
    UNKNOWN: { description: 'The provider has not said; reconciliation finds out.' },
  } as const,
});
