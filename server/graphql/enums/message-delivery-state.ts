import { builder } from '../builder.ts';

export const MessageDeliveryStateEnum = builder.enumType('MessageDeliveryState', {
  description: 'Where a message delivered to a task is. Delivered is not read: a step reads it.',
  values: {
    DELIVERED: { description: "In the task's inbox, not read yet (it can still be withdrawn or replaced)." },
    READ: { description: 'A step of the task read it (turn, step).' },
    ACTED_ON: { description: 'The step that read it did something (a tool call finished).' },
    WITHDRAWN: { description: 'Taken back before a step read it.' },
  } as const,
});
