import { builder } from '../builder.ts';

export const ForgetMemoryInput = builder.inputType('ForgetMemoryInput', {
  description: 'A memory to forget, every version of it.',
  fields: (t) => ({ memoryId: t.id({ required: true, description: 'The memory (Memory.id).' }) }),
});
