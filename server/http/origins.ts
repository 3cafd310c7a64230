// Which browser origins are trusted with the session cookie: the server's own origin (the host the
// browser addressed, port included) and the explicit allow-list ATELIER_ALLOWED_ORIGINS. Nothing
// else. A page on another port of the same host is another origin — it is "same-site", so the
// SameSite=Strict cookie alone would be sent with its requests; the server itself must refuse them.
//
// CORS follows from that: a trusted origin gets credentialed CORS (its exact origin, credentials,
// the CSRF header allowed); any other origin gets plain CORS for bearer tokens only — `*`, no
// credentials and no CSRF header, so a browser never sends or exposes the cookie to it. A request
// that carries a bearer token never gets credentialed CORS at all.
import type { CORSOptions } from 'graphql-yoga';
import { AppError } from '../errors.ts';
import type { Credential } from './credential.ts';

type HeaderGetter = { get(name: string): string | null };

export function isTrustedOrigin(origin: string | null | undefined, host: string | null | undefined, allowed: readonly string[]): boolean {
  if (!origin || origin === 'null') return false;
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    return false;
  }
  if (host && u.host === host.toLowerCase()) return true;
  return allowed.includes(u.origin);
}

/**
 * A cookie only authenticates a request from a trusted origin. Browsers send `Origin` with every
 * cross-origin request and every POST, so a request without one is same-origin (or not from a
 * browser, where the cookie is no ambient authority).
 */
export function checkCookieOrigin(cred: Credential | null, headers: HeaderGetter, allowed: readonly string[]): void {
  if (cred?.via !== 'cookie') return;
  const origin = headers.get('origin');
  if (origin === null) return;
  if (!isTrustedOrigin(origin, headers.get('host'), allowed)) {
    throw new AppError('FORBIDDEN', 'The session cookie is not accepted from this origin; use a bearer token');
  }
}

const ALLOWED_METHODS = ['GET', 'POST', 'OPTIONS'];
const PUBLIC_HEADERS = ['content-type', 'accept', 'authorization'];

/** CORS options for one request (graphql-yoga's `cors` factory). */
export function corsOptionsFor(request: Request, allowed: readonly string[]): CORSOptions {
  const origin = request.headers.get('origin');
  if (!origin) return false;
  const bearer = /^Bearer\s/i.test(request.headers.get('authorization') ?? '');
  if (!bearer && isTrustedOrigin(origin, request.headers.get('host'), allowed)) {
    return {
      origin: [origin],
      credentials: true,
      methods: ALLOWED_METHODS,
      allowedHeaders: [...PUBLIC_HEADERS, 'x-atelier-csrf'],
      maxAge: 600,
    };
  }
  return { origin: '*', credentials: false, methods: ALLOWED_METHODS, allowedHeaders: PUBLIC_HEADERS, maxAge: 600 };
}

/**
 * The origin a request was addressed to, as its client sees it: the Host it named, and https when a
 * TLS-terminating proxy says so (X-Forwarded-Proto, as the session cookie's Secure flag reads it).
 * Absolute URLs in an answer (signed file URLs) start with it unless ATELIER_PUBLIC_URL is set.
 */
export function requestOrigin(request: Request): string {
  const u = new URL(request.url);
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return proto === 'https' || proto === 'http' ? `${proto}://${u.host}` : u.origin;
}
