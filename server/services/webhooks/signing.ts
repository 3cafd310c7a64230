// Signing secrets and signatures, the Standard Webhooks way (standardwebhooks package): a secret is
// "whsec_" + base64 of 32 random bytes; a signature is "v1," + base64 HMAC-SHA256 of
// `<webhook-id>.<webhook-timestamp>.<body>`. During a rotation's grace period a delivery carries one
// signature per valid secret, space-separated, and a receiver holding either secret verifies it.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** What the API shows of a secret: enough to tell secrets apart, far too little to sign with. */
export function secretHint(secret: string): string {
  return `${secret.slice(0, 'whsec_'.length + 4)}…`;
}

/** The three headers of one attempt, signed with every valid secret (newest first). */
export function signedHeaders(secrets: readonly string[], messageId: string, at: Date, body: string): Record<string, string> {
  if (!secrets.length) throw new Error('a webhook endpoint without a signing secret');
  const signature = secrets.map((s) => new Webhook(s).sign(messageId, at, body)).join(' ');
  return {
    'webhook-id': messageId,
    // The same whole second the signature covers (Webhook.sign floors the date).
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}
