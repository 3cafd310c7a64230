import { builder } from '../builder.ts';

export const WebhookDeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description: 'Where a webhook delivery stands.',
  values: {
    PENDING: { description: 'Waiting for its next attempt: the first one, or a retry after a failure (nextAttemptAt).' },
    DELIVERED: { description: 'The receiver answered with a 2xx status.' },
    DEAD: {
      description:
        'Dead-lettered: every attempt of its series failed (or the endpoint was disabled, or the event is no longer kept); lastStatusCode and lastError tell the last failure. redeliverWebhook starts a new series.',
    },
  } as const,
});
