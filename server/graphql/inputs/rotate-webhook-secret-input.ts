import { builder } from '../builder.ts';

export const RotateWebhookSecretInput = builder.inputType('RotateWebhookSecretInput', {
  description: 'A new signing secret for a webhook endpoint; the previous one keeps signing for a grace period.',
  fields: (t) => ({
    endpointId: t.id({ required: true, description: 'The endpoint whose secret to rotate.' }),
    graceSeconds: t.int({
      required: false,
      description:
        'How long the previous secrets keep signing (each delivery carries one signature per valid secret), from 0 (stop at once) to 604,800 (7 days); default: the server\'s ATELIER_WEBHOOK_SECRET_GRACE_SECONDS (24 hours).',
    }),
  }),
});
