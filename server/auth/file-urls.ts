// Signed file URLs: GET /files/<name>?ws=<workspace global id>&exp=<unix seconds>&sig=<signature> serves one
// generated file with no credential until `exp` — what an <img>, a download link or curl can use.
// The signature is HMAC-SHA256, keyed by a server secret, over the workspace, the file name and the
// expiry, so changing any of them (or the signature) makes the URL invalid; the route then still
// serves only the stored file of a delivered job of that workspace (http/files.ts, store/files.ts).
// Such a URL is a bearer credential for one file until it expires: short-lived
// (ATELIER_FILE_URL_TTL_SECONDS, 15 minutes by default) and not revocable before then.
import { ensureSecretFile } from '../secret-file.ts';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { Config } from '../config.ts';

/** The names /files/ serves: a job's stored file is named `<upstream job id>.<ext>`. */
export const FILE_NAME = /^[A-Za-z0-9_-]{1,120}\.[A-Za-z0-9]{1,8}$/;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type FileUrlKey = { secret: string; ttlSeconds: number };

/** Version tag of what is signed: a future change of the signed fields cannot be confused with it. */
const signed = (p: { workspaceId: string; name: string; exp: number }) => `atelier-file-url:v1\n${p.workspaceId.toLowerCase()}\n${p.name}\n${p.exp}`;
const mac = (secret: string, p: { workspaceId: string; name: string; exp: number }) => createHmac('sha256', secret).update(signed(p)).digest();

/**
 * The expiry of a URL made now: at least `ttlSeconds` ahead, rounded up to a step of at most a minute
 * (a tenth of the lifetime for short ones), so the same file asked for twice within a step gets the
 * same URL and a browser's cached copy is used.
 */
export function expiryFor(ttlSeconds: number, nowMs: number): number {
  const step = Math.max(1, Math.min(60, Math.floor(ttlSeconds / 10)));
  return Math.ceil((Math.floor(nowMs / 1000) + ttlSeconds) / step) * step;
}

/**
 * The path and query of a signed URL for this file of this workspace (the caller puts its public
 * origin in front), and when it expires. `exp` may be given (tests sign already-expired URLs).
 */
export function signFileUrl(key: FileUrlKey, p: { workspaceId: string; name: string; nowMs?: number; exp?: number }): { path: string; expiresAt: Date } {
  const exp = p.exp ?? expiryFor(key.ttlSeconds, p.nowMs ?? Date.now());
  const sig = mac(key.secret, { workspaceId: p.workspaceId, name: p.name, exp }).toString('base64url');
  // The workspace as the API names it everywhere: its global id.
  const query = new URLSearchParams({ ws: Buffer.from(`Workspace:${p.workspaceId}`, 'utf8').toString('base64'), exp: String(exp), sig });
  return { path: `/files/${encodeURIComponent(p.name)}?${query}`, expiresAt: new Date(exp * 1000) };
}

export type FileUrlCheck = { ok: true; workspaceId: string } | { ok: false; reason: 'invalid' | 'expired' };

/**
 * Checks a signed URL's parameters for this file name. The signature is compared in constant time,
 * and before the expiry, so a forged URL learns nothing from the answer but "not valid"; only a
 * genuine one that ran out is told it expired.
 */
export function verifyFileUrl(secret: string, name: string, q: URLSearchParams, nowMs = Date.now()): FileUrlCheck {
  const ws = /^Workspace:(.*)$/.exec(Buffer.from(q.get('ws') ?? '', 'base64').toString('utf8'))?.[1] ?? '';
  const expText = q.get('exp') ?? '';
  const sig = q.get('sig') ?? '';
  if (!FILE_NAME.test(name) || !UUID.test(ws) || !/^\d{1,12}$/.test(expText) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return { ok: false, reason: 'invalid' };
  const exp = Number(expText);
  const given = Buffer.from(sig, 'base64url');
  const expected = mac(secret, { workspaceId: ws, name, exp });
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
  if (exp * 1000 <= nowMs) return { ok: false, reason: 'expired' };
  return { ok: true, workspaceId: ws.toLowerCase() };
}

/**
 * The signing secret: ATELIER_FILE_URL_SECRET, else — outside production — one generated once and
 * kept in `<dataDir>/file-url-secret` (mode 0600), so every process on one data directory signs and
 * checks alike. In production (NODE_ENV=production) it must come from the environment: API processes
 * on several machines share no data directory, and a URL signed by one must open on the others.
 */
export function fileUrlSecret(config: Pick<Config, 'dataDir' | 'files'>): string {
  if (config.files?.urlSecret) return config.files.urlSecret;
  if (config.files?.production) {
    throw new Error(
      'Invalid configuration:\n  ATELIER_FILE_URL_SECRET: required when NODE_ENV=production (every API process signs file URLs with it); e.g. openssl rand -base64 32',
    );
  }
  // The data directory keeps its default mode: it is also the embedded PostgreSQL's parent, which
  // its system user must be able to enter. The file itself is private (0600).
  return ensureSecretFile(join(config.dataDir, 'file-url-secret'), () => randomBytes(32).toString('base64url'));
}

