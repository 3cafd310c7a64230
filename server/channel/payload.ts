// Payload encoding: canonical JSON (sorted keys) so equal content hashes equally; inline when small,
// otherwise stored once in event_payloads and referenced by (hash, size, schema).
import { createHash } from 'node:crypto';
import { canonicalJson } from '../domain/canonical-json.ts';

export { canonicalJson };

export const INLINE_PAYLOAD_LIMIT = 8 * 1024;

export type EncodedPayload =
  | { inline: true; json: string; size: number }
  | { inline: false; json: string; size: number; hash: string };

export function encodePayload(payload: unknown, limit = INLINE_PAYLOAD_LIMIT): EncodedPayload {
  const json = canonicalJson(payload ?? null);
  const size = Buffer.byteLength(json, 'utf8');
  if (size <= limit) return { inline: true, json, size };
  return { inline: false, json, size, hash: createHash('sha256').update(json).digest('hex') };
}
