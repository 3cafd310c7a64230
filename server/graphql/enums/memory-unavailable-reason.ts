import { builder } from '../builder.ts';

export const MemoryUnavailableReasonEnum = builder.enumType('MemoryUnavailableReason', {
  description: 'Why long-term memory could not be read for a step.',
  values: {
    TIMEOUT: { description: 'Reading it took longer than the step allows.' },
    ERROR: { description: 'The read failed.' },
  } as const,
});
