import { builder } from '../builder.ts';

export const AnswerCardInput = builder.inputType('AnswerCardInput', {
  fields: (t) => ({
    cardId: t.id({ required: true, description: 'The card (Message.card.id, SendMessagePayload.card.id).' }),
    optionId: t.string({ required: true, description: 'The id of the option chosen (Card.options).' }),
    idempotencyKey: t.string({ required: true, description: 'Retrying with the same key returns the recorded answer.' }),
  }),
});
