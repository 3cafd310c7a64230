import { builder } from '../builder.ts';

export const WithheldReasonEnum = builder.enumType('WithheldReason', {
  description: 'Why content reads as withheld.',
  values: {
    FORGOTTEN_VALUE: { description: 'The version contained a value its owner asked to forget, and they chose to remove it from the work.' },
    FORGOTTEN_MEMORY: { description: "The content was derived while a memory was in the agent's context, and that memory was forgotten (its key destroyed)." },
  } as const,
});
