import type { EndpointRow } from '../../services/webhooks/list-webhooks.ts';
import { builder } from '../builder.ts';
import { WebhookEndpointRef } from '../refs.ts';

export const WebhookEndpointSecretPayload = builder.objectRef<{ endpoint: EndpointRow; secret: string }>('WebhookEndpointSecretPayload').implement({
  description: 'An endpoint with a signing secret that was just made: the only time the secret is readable.',
  fields: (t) => ({
    endpoint: t.field({ type: WebhookEndpointRef, description: 'The endpoint.', resolve: (p) => p.endpoint }),
    secret: t.exposeString('secret', {
      description: 'The new signing secret ("whsec_" + base64), for standardwebhooks\' Webhook(secret).verify. Store it now: it is never shown again.',
    }),
  }),
});
