import type { DeliveryRow } from '../../services/webhooks/list-webhooks.ts';
import { builder } from '../builder.ts';
import { WebhookDeliveryRef } from '../refs.ts';

export const WebhookDeliveryPayload = builder.objectRef<{ delivery: DeliveryRow }>('WebhookDeliveryPayload').implement({
  description: 'A webhook delivery whose (next) attempt was just queued.',
  fields: (t) => ({ delivery: t.field({ type: WebhookDeliveryRef, description: 'The delivery, PENDING until its attempt is made.', resolve: (p) => p.delivery }) }),
});
