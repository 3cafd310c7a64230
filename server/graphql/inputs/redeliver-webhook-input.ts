import { builder } from '../builder.ts';

export const RedeliverWebhookInput = builder.inputType('RedeliverWebhookInput', {
  description: 'A webhook delivery to send again.',
  fields: (t) => ({ deliveryId: t.id({ required: true, description: 'The delivery: it starts a new series of attempts with the same webhook-id, whatever its status.' }) }),
});
