import { builder } from '../builder.ts';

export const CardActionInput = builder.inputType('CardActionInput', {
  description: 'An answer to a question of the main thread given with sendMessage (the oldest way; use resolveApproval with decision PICK).',
  fields: (t) => ({
    cardId: t.id({ required: true, description: 'The question (its Approval id).' }),
    optionId: t.string({ required: true, description: 'The id of the option chosen.' }),
  }),
});
