// The wire format between Atelier and the provider service (server/provider/), shared by both ends:
// jobs as JSON, files by name (fetched from GET /v1/files/<name>), callbacks signed by the Standard
// Webhooks scheme (webhook-id, webhook-timestamp, webhook-signature: HMAC-SHA256 of
// `id.timestamp.body`) with the shared secret. API calls carry the same secret as a bearer token.
import { ensureSecretFile } from '../secret-file.ts';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import type { JobStatus } from './status.ts';
import type { GenerationKind } from './types.ts';

export const KINDS = ['IMAGE', 'VIDEO', 'AUDIO', 'MODEL_3D'] as const satisfies readonly GenerationKind[];
export const STATUSES = ['SUBMITTING', 'QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'UNKNOWN'] as const satisfies readonly JobStatus[];

/** A file name as the provider serves it and the API stores it: `<job id>.<ext>`, nothing else. */
export const FILE_NAME = /^[A-Za-z0-9_-]{1,120}\.[A-Za-z0-9]{1,8}$/;

export const WireFile = z.object({
  name: z.string().regex(FILE_NAME),
  mime: z.string().max(100),
  bytes: z.number().int().min(0),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
});
export type WireFile = z.infer<typeof WireFile>;

/** A job's state: the answer to submit, status, lookup and cancel, and the body of a callback. */
export const WireJob = z.object({
  id: z.string().min(1).max(200),
  idempotencyKey: z.string().optional(),
  status: z.enum(STATUSES),
  progress: z.number().min(0).max(1).optional(),
  error: z.string().optional(),
  files: z.array(WireFile).optional(),
});
export type WireJob = z.infer<typeof WireJob>;

export const SubmitBody = z.object({
  kind: z.enum(KINDS),
  prompt: z.string().max(20_000),
  params: z.record(z.string(), z.unknown()).default({}),
  idempotencyKey: z.string().min(1).max(500).optional(),
  /** Where to POST this job's updates (none: the client polls). */
  callbackUrl: z.string().url().optional(),
});

export const Capabilities = z.object({ kinds: z.array(z.enum(KINDS)), prices: z.record(z.string(), z.number().int().min(0)) });

/** The signing key: a `whsec_…` secret is base64 (the Standard Webhooks form); any other string is used as is. */
export function webhookFor(secret: string): Webhook {
  return secret.startsWith('whsec_') ? new Webhook(secret) : new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' });
}

/** Constant-time check of an `Authorization: Bearer <secret>` header. */
export function bearerMatches(header: string | undefined, secret: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1]!.trim()), digest(secret));
}

/**
 * The shared secret when ATELIER_PROVIDER_SECRET is unset: generated once and kept in
 * `<dataDir>/provider/secret` (mode 0600), so the API, workers and the provider service on one data
 * directory agree without configuration.
 */
export function ensureProviderSecret(dataDir: string): string {
  const dir = join(dataDir, 'provider');
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  return ensureSecretFile(join(dir, 'secret'), () => `whsec_${randomBytes(32).toString('base64')}`);
}
