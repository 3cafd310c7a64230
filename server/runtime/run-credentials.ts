// Per-run credentials: the agent acts with a short-lived JWT of its own, never with the server's
// authority. A credential is minted for one run (a turn at one generation), names one audience
// (the one system it is for) and a set of scopes, and is signed (ES256, jose) with the workspace's
// current key (store/agents/signing-keys.ts), verifiable by anyone against the workspace's JWKS
// (/.well-known/jwks/<workspace id>.json). Invariants:
//  - It never lives longer than MAX_CREDENTIAL_LIFETIME_MS (10 minutes), whatever the caller asks;
//    verification refuses a token that claims a longer life, even one signed by a workspace key.
//  - It verifies only against a key of the workspace it names (`ws`), while that key is accepted.
//  - It is worth no more than its run: verification asks the database, in one read, whether the
//    turn is still at the credential's generation and RUNNING and the task still runnable (the
//    runtime's fence asks the same). A lost lease (a takeover), an ended turn and a paused,
//    cancelled or ended task revoke it at once, mid-call included.
//  - Codes: CREDENTIAL_INVALID (not ours, tampered, wrong audience or workspace, key no longer
//    accepted), CREDENTIAL_EXPIRED, CREDENTIAL_REVOKED. Each says why in its message, never the token.
import { randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Db } from '../db/client.ts';
import type { TaskStatus } from '../domain/task-status.ts';
import { AppError } from '../errors.ts';
import { MAX_CREDENTIAL_LIFETIME_MS, currentSigningKey, runCredentialStanding, workspacePublicKey } from '../store/agents/signing-keys.ts';

export { MAX_CREDENTIAL_LIFETIME_MS };

export type RunPrincipal = { id: string; name: string; version: number };
export type RunCredential = {
  token: string;
  principal: RunPrincipal;
  scopes: string[];
  audience: string;
  workspaceId: string;
  taskId: string;
  turnId: string;
  generation: number;
  expiresAt: Date;
};

/** The JWT `typ` of a run credential: an OAuth 2.0 access token in JWT form (RFC 9068). */
export const RUN_CREDENTIAL_TYP = 'at+jwt';
/** `iss` when no public URL is configured. */
export const DEFAULT_ISSUER = 'atelier';
/** How far a verifier's clock may trail the minter's (seconds) before `iat` counts as "in the future". */
const CLOCK_SKEW_S = 5;

/**
 * Task statuses a run may act in: the runtime's fence allows the same (RUNNABLE in lease.ts, which
 * imports this module and so cannot be imported here).
 */
const RUNNABLE: readonly TaskStatus[] = ['QUEUED', 'RUNNING', 'WAITING'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SCOPE = /^[\x21-\x7e]+$/;

const invalid = (why: string) => new AppError('CREDENTIAL_INVALID', `The agent credential is not valid: ${why}`);
const expired = () => new AppError('CREDENTIAL_EXPIRED', 'The agent credential has expired');
const revoked = (why: string) => new AppError('CREDENTIAL_REVOKED', `The agent credential was revoked: ${why}`);

/**
 * Mints a JWT (ES256, jose) for one run: sub = `agent:<principal id>`, aud = audience, scope =
 * space-separated, exp ≤ 10 min, claims bind task, turn, generation, principal version.
 * `issuer` is the server's public URL when one is configured.
 */
export async function mintRunCredential(
  deps: { prisma: Db; issuer?: string },
  input: Omit<RunCredential, 'token' | 'expiresAt'> & { ttlMs?: number },
): Promise<RunCredential> {
  if (!UUID.test(input.workspaceId) || !UUID.test(input.taskId) || !UUID.test(input.turnId)) throw new Error('mintRunCredential: workspace, task and turn must be ids');
  if (!Number.isInteger(input.generation) || input.generation < 0) throw new Error('mintRunCredential: generation must be a whole number');
  if (!Number.isInteger(input.principal.version) || input.principal.version < 1) throw new Error('mintRunCredential: the principal version must be a positive whole number');
  if (!input.audience) throw new Error('mintRunCredential: an audience is required');
  const bad = input.scopes.find((s) => !SCOPE.test(s));
  if (bad !== undefined) throw new Error(`mintRunCredential: scope "${bad}" must be printable and without spaces`);
  const scopes = [...new Set(input.scopes)];
  // The hard cap: a caller may ask for less, never more. Whole seconds, rounded down.
  const ttlMs = Math.max(0, Math.min(input.ttlMs ?? MAX_CREDENTIAL_LIFETIME_MS, MAX_CREDENTIAL_LIFETIME_MS));
  const key = await currentSigningKey(deps.prisma, input.workspaceId);
  const nowMs = Date.now();
  const iat = Math.floor(nowMs / 1000);
  const exp = Math.floor((nowMs + ttlMs) / 1000);
  const token = await new SignJWT({
    scope: scopes.join(' '),
    ws: input.workspaceId,
    task: input.taskId,
    turn: input.turnId,
    gen: input.generation,
    ver: input.principal.version,
    name: input.principal.name,
  })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: RUN_CREDENTIAL_TYP })
    .setIssuer(deps.issuer ?? DEFAULT_ISSUER)
    .setSubject(`agent:${input.principal.id}`)
    .setAudience(input.audience)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(randomUUID())
    .sign(key.privateKey);
  return {
    token,
    principal: { ...input.principal },
    scopes,
    audience: input.audience,
    workspaceId: input.workspaceId,
    taskId: input.taskId,
    turnId: input.turnId,
    generation: input.generation,
    expiresAt: new Date(exp * 1000),
  };
}

const str = (p: JWTPayload, k: string): string | undefined => (typeof p[k] === 'string' ? (p[k] as string) : undefined);
const int = (p: JWTPayload, k: string): number | undefined => (Number.isInteger(p[k]) ? (p[k] as number) : undefined);

/**
 * Checks signature (workspace JWKS), audience, expiry and that the run is still live (its turn
 * still held at that generation, task not cancelled/ended); throws AppError with code
 * CREDENTIAL_INVALID | CREDENTIAL_EXPIRED | CREDENTIAL_REVOKED. `workspaceId`, when given, is the
 * workspace the caller acts for: a credential of any other is invalid there.
 */
export async function verifyRunCredential(deps: { prisma: Db }, token: string, expect: { audience: string; workspaceId?: string }): Promise<RunCredential> {
  // Which workspace's key to check it with comes from the token itself; nothing in it is trusted
  // until the signature is checked against that workspace's own key.
  let kid: string | undefined;
  let ws: string | undefined;
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== 'ES256' || header.typ !== RUN_CREDENTIAL_TYP) throw invalid('not a run credential');
    kid = header.kid;
    ws = str(decodeJwt(token), 'ws');
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw invalid('not a JWT');
  }
  if (!kid || !ws || !UUID.test(ws)) throw invalid('it names no signing key or workspace');
  ws = ws.toLowerCase();
  if (expect.workspaceId !== undefined && ws !== expect.workspaceId.toLowerCase()) throw invalid('it was issued for another workspace');
  const key = await workspacePublicKey(deps.prisma, ws, kid);
  if (!key) throw invalid('it is not signed by a key of its workspace');
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: ['ES256'],
      typ: RUN_CREDENTIAL_TYP,
      audience: expect.audience,
      // An `iat` older than the longest lifetime is expired whatever `exp` says; one in the future
      // (beyond the clock skew) is refused.
      maxTokenAge: MAX_CREDENTIAL_LIFETIME_MS / 1000,
      clockTolerance: CLOCK_SKEW_S,
      requiredClaims: ['iat', 'exp', 'sub', 'jti'],
    }));
  } catch (e) {
    if (e instanceof errors.JWTExpired) throw expired();
    if (e instanceof errors.JWTClaimValidationFailed && e.claim === 'aud') throw invalid('it is for another audience');
    if (e instanceof errors.JOSEError) throw invalid(e instanceof errors.JWSSignatureVerificationFailed ? 'the signature does not match' : 'its claims do not check out');
    throw e;
  }
  // jwtVerify's tolerance applies to exp too; the cap is exact.
  if (payload.exp! - payload.iat! > MAX_CREDENTIAL_LIFETIME_MS / 1000) throw invalid('it claims a lifetime beyond 10 minutes');
  if (payload.exp! * 1000 <= Date.now()) throw expired();
  const sub = payload.sub!;
  const taskId = str(payload, 'task');
  const turnId = str(payload, 'turn');
  const generation = int(payload, 'gen');
  const version = int(payload, 'ver');
  const scope = str(payload, 'scope');
  const name = str(payload, 'name');
  const aud = typeof payload.aud === 'string' ? payload.aud : expect.audience;
  if (!sub.startsWith('agent:') || !taskId || !UUID.test(taskId) || !turnId || !UUID.test(turnId) || generation === undefined || version === undefined || scope === undefined || name === undefined) {
    throw invalid('its claims are incomplete');
  }
  const standing = await runCredentialStanding(deps.prisma, { workspaceId: ws, taskId, turnId, kid });
  if (!standing) throw revoked('its run no longer exists');
  if (!standing.keyAccepted) throw invalid('its signing key is no longer accepted');
  if (standing.generation !== generation) throw revoked('another run took the turn over');
  if (standing.turnStatus !== 'RUNNING') throw revoked('its run has ended');
  if (!RUNNABLE.includes(standing.taskStatus)) throw revoked(`the task is ${standing.taskStatus.toLowerCase().replace('_', ' ')}`);
  return {
    token,
    principal: { id: sub.slice('agent:'.length), name, version },
    scopes: scope ? scope.split(' ') : [],
    audience: aud,
    workspaceId: ws,
    taskId,
    turnId,
    generation,
    expiresAt: new Date(payload.exp! * 1000),
  };
}
