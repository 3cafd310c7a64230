// Bearer tokens: `atl_` + 32 random bytes (base64url). Only SHA-256(token) is stored; a token's
// entropy makes a slow hash unnecessary, and a fast one keeps authentication a single indexed read.
import { createHash, randomBytes } from 'node:crypto';

export const TOKEN_PREFIX = 'atl_';

export function generateToken(): { token: string; hash: string; prefix: string } {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token), prefix: token.slice(0, 12) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Parses an `Authorization` header value; returns null when absent or not a bearer token. */
export function parseBearer(header: string | null | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}
