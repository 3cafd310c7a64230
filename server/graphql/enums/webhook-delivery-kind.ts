import { builder } from '../builder.ts';

export const WebhookDeliveryKindEnum = builder.enumType('WebhookDeliveryKind', {
  description: 'What a webhook delivery carries.',
  values: {
    EVENT: { description: "An event of the workspace's log (body type: the event's type)." },
    PING: { description: 'A test delivery from sendTestWebhook (body type: PING).' },
  } as const,
});
