import { builder } from '../builder.ts';

export const CorrectMemoryInput = builder.inputType('CorrectMemoryInput', {
  description: 'A correction of a memory.',
  fields: (t) => ({
    memoryId: t.id({ required: true, description: 'The memory (Memory.id).' }),
    value: t.string({ required: true, description: 'The right value, in your words (1–200 characters).' }),
    idempotencyKey: t.string({ required: true, description: 'Retrying with the same key returns the first result.' }),
  }),
});
