// Browser sessions. A person signs in once with a token (e.g. the owner token printed at the first
// start); POST /auth/session exchanges it for a NEW token of the same user, workspace and scopes,
// held only in an httpOnly, SameSite=Strict cookie (30 days). Sign-out revokes that token.
// The GraphQL endpoint accepts the cookie as well as bearer tokens. CSRF: every cookie-authenticated
// HTTP request to /graphql and /auth/* must carry the custom header `x-atelier-csrf: 1` (a cross-site
// form or image cannot set it, and a cross-site fetch with it needs a preflight we never grant);
// a cookie-authenticated WebSocket must come from our own origin.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { hashToken, parseBearer } from '../auth/tokens.ts';
import { authenticateToken } from '../auth/viewer.ts';
import type { Deps } from '../services/deps.ts';
import { AppError, isAppError } from '../errors.ts';
import { createToken } from '../auth/create-token.ts';
import { earliest } from '../auth/viewer.ts';
import type { Credential } from './credential.ts';
import { isTrustedOrigin } from './origins.ts';

export const SESSION_COOKIE = 'atelier_session';
export const CSRF_HEADER = 'x-atelier-csrf';
const SESSION_DAYS = 30;

export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    if (part.slice(0, i).trim() === name) {
      const v = part.slice(i + 1).trim();
      try {
        return decodeURIComponent(v) || null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

export type { Credential };

type HeaderGetter = { get(name: string): string | null };
const getter = (h: IncomingHttpHeaders | HeaderGetter): HeaderGetter =>
  'get' in h && typeof h.get === 'function'
    ? (h as HeaderGetter)
    : { get: (n: string) => { const v = (h as IncomingHttpHeaders)[n]; return Array.isArray(v) ? (v[0] ?? null) : (v ?? null); } };

/** The bearer token wins; otherwise the session cookie. */
export function credentialOf(headers: IncomingHttpHeaders | HeaderGetter): Credential | null {
  const h = getter(headers);
  const bearer = parseBearer(h.get('authorization'));
  if (bearer) return { token: bearer, via: 'bearer' };
  const cookie = readCookie(h.get('cookie'), SESSION_COOKIE);
  return cookie ? { token: cookie, via: 'cookie' } : null;
}

/** Throws FORBIDDEN when a cookie-authenticated request lacks the CSRF header. */
export function checkCsrf(cred: Credential | null, headers: IncomingHttpHeaders | HeaderGetter): void {
  if (cred?.via !== 'cookie') return;
  if (getter(headers).get(CSRF_HEADER) !== '1') {
    throw new AppError('FORBIDDEN', `Cookie-authenticated requests need the ${CSRF_HEADER} header`);
  }
}

/** A WebSocket authenticated by cookie must be opened by a page of a trusted origin (always sent). */
export function trustedSocketOrigin(req: IncomingMessage, allowed: readonly string[]): boolean {
  return isTrustedOrigin(req.headers.origin, req.headers.host, allowed);
}

function cookieHeader(req: IncomingMessage, value: string, maxAgeSeconds: number): string {
  const secure = (req.headers['x-forwarded-proto'] ?? '') === 'https' || (req.socket as { encrypted?: boolean }).encrypted;
  return [
    `${SESSION_COOKIE}=${encodeURIComponent(value)}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAgeSeconds}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

function send(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...extra });
  res.end(text);
}

const fail = (res: ServerResponse, status: number, code: string, message: string) => send(res, status, { ok: false, code, message });

/** POST /auth/session { token } → Set-Cookie; POST /auth/signout → revoke and clear. */
export async function handleAuth(deps: Deps, req: IncomingMessage, res: ServerResponse, path: string, body: Buffer | undefined) {
  if (req.method !== 'POST') return fail(res, 405, 'BAD_USER_INPUT', 'Use POST.');
  if (req.headers[CSRF_HEADER] !== '1') return fail(res, 403, 'FORBIDDEN', `The ${CSRF_HEADER} header is required.`);
  const origin = req.headers.origin;
  if (origin !== undefined && !isTrustedOrigin(origin, req.headers.host, deps.config.allowedOrigins ?? [])) {
    return fail(res, 403, 'FORBIDDEN', 'Sign-in is not accepted from this origin.');
  }
  if (path === '/auth/session') {
    let token: unknown;
    try {
      token = (JSON.parse(body?.toString('utf8') || '{}') as { token?: unknown }).token;
    } catch {
      return fail(res, 400, 'BAD_USER_INPUT', 'The request body is not JSON.');
    }
    if (typeof token !== 'string' || !token.trim()) return fail(res, 400, 'BAD_USER_INPUT', 'Enter your access token.');
    try {
      const viewer = await authenticateToken(deps.prisma, token.trim());
      const [workspaceId] = [...viewer.memberships.keys()];
      if (viewer.principal === 'SERVICE') return fail(res, 403, 'FORBIDDEN', 'Integration tokens cannot sign in to the web app.');
      // A session never outlives what it was made from: exchanging a session again gives one tied
      // to the same original token and expiring no later than the one presented.
      const expiresAt = earliest(new Date(Date.now() + SESSION_DAYS * 86_400_000), viewer.expiresAt)!;
      const session = await createToken(deps.prisma, {
        workspaceId: workspaceId!,
        userId: viewer.userId,
        name: 'web session',
        scopes: [...viewer.scopes],
        expiresAt,
        principal: 'HUMAN',
        paidActions: viewer.paidActions ?? 'WORKSPACE_RULES',
        parentTokenId: viewer.rootCredentialId ?? viewer.credentialId,
      });
      const maxAge = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
      return send(res, 200, { ok: true, workspaceId, expiresAt: expiresAt.toISOString() }, { 'set-cookie': cookieHeader(req, session.token, maxAge) });
    } catch (e) {
      if (isAppError(e)) return fail(res, 401, 'UNAUTHENTICATED', 'That token is not valid (revoked, expired or mistyped).');
      throw e;
    }
  }
  if (path === '/auth/signout') {
    const cookie = readCookie(req.headers.cookie, SESSION_COOKIE);
    if (cookie) {
      // Only a session token is revoked here, never the token it was exchanged from.
      await deps.prisma.apiToken.updateMany({ where: { tokenHash: hashToken(cookie), name: 'web session', revokedAt: null }, data: { revokedAt: new Date() } });
    }
    return send(res, 200, { ok: true }, { 'set-cookie': cookieHeader(req, '', 0) });
  }
  return fail(res, 404, 'NOT_FOUND', 'Not found');
}
