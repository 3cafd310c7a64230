import { builder } from '../builder.ts';
import { InputPolicyEnum } from '../enums/input-policy.ts';
import { CardActionInput } from './card-action-input.ts';

export const SendMessageInput = builder.inputType('SendMessageInput', {
  description: 'A message for the main thread.',
  fields: (t) => ({
    workspaceId: t.id({ required: true, description: 'The workspace (your main thread in it).' }),
    text: t.string({ required: false, description: 'What you write. Required, except with cardAction.' }),
    taskId: t.id({ required: false, description: 'Sent from a task panel: delivered to this task without routing.' }),
    objectId: t.id({ required: false, description: 'Sent while viewing this workspace object (its global id): routed to the task that uses it, when one does.' }),
    cardAction: t.field({
      type: CardActionInput,
      required: false,
      description: 'Answers a question of the thread: its message is routed by the option picked. Text other than the option’s label goes to the chosen task as a message of its own.',
      deprecationReason: 'Use resolveApproval (decision PICK, choice: the option id).',
    }),
    idempotencyKey: t.string({ required: true, description: 'Retrying with the same key returns the first result.' }),
    inputPolicy: t.field({ type: InputPolicyEnum, required: false, description: "What this message does if its task is running (QUEUE, INTERRUPT, REJECT, ROLLBACK); absent: the task's own inputPolicy." }),
  }),
});
