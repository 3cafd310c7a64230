import { builder } from '../builder.ts';
import { CardActionInput } from './card-action-input.ts';

export const SendMessageInput = builder.inputType('SendMessageInput', {
  fields: (t) => ({
    workspaceId: t.id({ required: true }),
    text: t.string({ required: false, description: 'What you write. Required, except when answering a card with cardAction (better: answerCard).' }),
    taskId: t.id({ required: false, description: 'Sent from a task panel: delivered to this task without routing.' }),
    objectId: t.string({ required: false, description: 'Sent while viewing a workspace object.' }),
    cardAction: t.field({
      type: CardActionInput,
      required: false,
      description: 'Answers a card, like answerCard: the card’s message is routed by the option picked. Text other than the option’s label goes to the chosen task as a message of its own.',
    }),
    idempotencyKey: t.string({ required: true, description: 'Retrying with the same key returns the first result.' }),
  }),
});
