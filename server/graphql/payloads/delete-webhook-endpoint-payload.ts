import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../builder.ts';

export const DeleteWebhookEndpointPayload = builder.objectRef<{ endpointId: string }>('DeleteWebhookEndpointPayload').implement({
  description: 'A deleted webhook endpoint.',
  fields: (t) => ({
    deletedEndpointId: t.id({ description: 'The id the endpoint had.', resolve: (p) => encodeGlobalID('WebhookEndpoint', p.endpointId) }),
  }),
});
