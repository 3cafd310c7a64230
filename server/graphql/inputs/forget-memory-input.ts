import { builder } from '../builder.ts';

export const ForgetMemoryInput = builder.inputType('ForgetMemoryInput', { fields: (t) => ({ memoryId: t.id({ required: true }) }) });
