import { builder } from '../builder.ts';

export const CardActionInput = builder.inputType('CardActionInput', {
  fields: (t) => ({ cardId: t.id({ required: true }), optionId: t.string({ required: true }) }),
});
