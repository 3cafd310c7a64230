import { builder } from '../builder.ts';

export const CorrectMemoryInput = builder.inputType('CorrectMemoryInput', {
  fields: (t) => ({
    memoryId: t.id({ required: true }),
    value: t.string({ required: true, description: 'The right value, in your words (1–200 characters).' }),
    idempotencyKey: t.string({ required: true, description: 'Retrying with the same key returns the first result.' }),
  }),
});
