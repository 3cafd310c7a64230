import { builder } from '../builder.ts';

export const SendTestWebhookInput = builder.inputType('SendTestWebhookInput', {
  description: 'The webhook endpoint to send a test delivery (PING) to.',
  fields: (t) => ({ endpointId: t.id({ required: true, description: 'The endpoint to test; it need not be enabled, and its filters do not apply.' }) }),
});
