import { builder } from '../builder.ts';
import { CardActionInput } from './card-action-input.ts';

export const SendMessageInput = builder.inputType('SendMessageInput', {
  fields: (t) => ({
    workspaceId: t.id({ required: true }),
    text: t.string({ required: true }),
    taskId: t.id({ required: false, description: 'Sent from a task panel: delivered to this task without routing.' }),
    objectId: t.string({ required: false, description: 'Sent while viewing a workspace object.' }),
    cardAction: t.field({ type: CardActionInput, required: false, description: 'The option picked on a card.' }),
    idempotencyKey: t.string({ required: true, description: 'Retrying with the same key returns the first result.' }),
  }),
});
