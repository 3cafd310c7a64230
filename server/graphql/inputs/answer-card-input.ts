import { builder } from '../builder.ts';

export const AnswerCardInput = builder.inputType('AnswerCardInput', {
  description: 'An answer to a question of the main thread (the former way; use resolveApproval with decision PICK).',
  fields: (t) => ({
    cardId: t.id({ required: true, description: 'The question (Message.approval.id, SendMessagePayload.approval.id; Card.id is the same id).' }),
    optionId: t.string({ required: true, description: 'The id of the option chosen (Approval.options).' }),
    idempotencyKey: t.string({ required: true, description: 'Retrying with the same key returns the recorded answer.' }),
  }),
});
