import type { EndpointRow } from '../../services/webhooks/list-webhooks.ts';
import { builder } from '../builder.ts';
import { WebhookEndpointRef } from '../refs.ts';

export const WebhookEndpointPayload = builder.objectRef<{ endpoint: EndpointRow }>('WebhookEndpointPayload').implement({
  description: 'A webhook endpoint after a change.',
  fields: (t) => ({ endpoint: t.field({ type: WebhookEndpointRef, description: 'The endpoint as it is now.', resolve: (p) => p.endpoint }) }),
});
