import { builder } from '../builder.ts';
import { WebhookSigningSecretRef } from '../refs.ts';

builder.objectType(WebhookSigningSecretRef, {
  description: 'A signing secret of a webhook endpoint, as far as it can be read after its creation: a hint and its lifetime, never the secret.',
  fields: (t) => ({
    hint: t.exposeString('hint', { description: 'The first characters of the secret ("whsec_" and four more), to tell secrets apart.' }),
    current: t.boolean({ description: 'Whether it is the current secret (the newest; it has no expiry).', resolve: (s) => s.expiresAt === null }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was made.' }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When a rotated-out secret stops signing (the end of its grace period); null for the current one.',
    }),
  }),
});
