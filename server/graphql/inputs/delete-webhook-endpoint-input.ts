import { builder } from '../builder.ts';

export const DeleteWebhookEndpointInput = builder.inputType('DeleteWebhookEndpointInput', {
  description: 'The webhook endpoint to delete, with its secrets, deliveries and their attempts.',
  fields: (t) => ({ endpointId: t.id({ required: true, description: 'The endpoint to delete.' }) }),
});
