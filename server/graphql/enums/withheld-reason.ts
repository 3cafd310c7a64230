import { builder } from '../builder.ts';

export const WithheldReasonEnum = builder.enumType('WithheldReason', {
  description:
    'FORGOTTEN_VALUE: the version contained a value its owner asked to forget, and they chose to remove it from the work. ' +
    'FORGOTTEN_MEMORY: the content was derived while a memory was in the agent\'s context, and that memory was forgotten (its key destroyed).',
  values: ['FORGOTTEN_VALUE', 'FORGOTTEN_MEMORY'] as const,
});
