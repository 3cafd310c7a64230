// Per-run credentials end to end: the real API on a per-file database (no worker: each test holds
// a turn's lease itself, as a worker's claim would), the workspace signing keys in PostgreSQL, and
// verification three ways — verifyRunCredential (signature, audience, expiry and the run's
// liveness in the database), jose's own jwtVerify against the JWKS served over real HTTP
// (createRemoteJWKSet), and the GraphQL rotation an owner calls.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { createPrisma, type PrismaClient } from '../server/db/client.ts';
import { isAppError } from '../server/errors.ts';
import { mintRunCredential, verifyRunCredential, type RunCredential } from '../server/runtime/run-credentials.ts';
import { currentSigningKey, MAX_CREDENTIAL_LIFETIME_MS, publicJwks, rotateSigningKey } from '../server/store/agents/signing-keys.ts';
import { openSecret } from '../server/store/secret-box.ts';
import { seedWorkspace, startTestApp, type TestApp } from './helpers/app.ts';
import { gqlOk, toGlobalId } from './helpers/clients.ts';
import { CreateTask, SignalTask } from './helpers/documents.ts';
import { waitFor } from './helpers/wait.ts';

const AUDIENCE = 'mcp:docs';
const principal = { id: randomUUID(), name: 'Atelier', version: 3 };

/** The AppError code a promise fails with (the test fails if it succeeds or fails otherwise). */
async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return e.code;
    throw e;
  }
  assert.fail('expected the credential to be refused');
}

/** The token with one part of its payload changed, signature kept. */
function tamper(token: string, change: (claims: Record<string, unknown>) => void): string {
  const [h, p, s] = token.split('.');
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString('utf8')) as Record<string, unknown>;
  change(claims);
  return [h, Buffer.from(JSON.stringify(claims)).toString('base64url'), s].join('.');
}

describe('per-run credentials', () => {
  let t: TestApp;
  let db: PrismaClient;

  /** A task with its turn leased to a (pretend) worker at generation 1, as a claim leaves it. */
  async function leasedRun(ws: { workspaceId: string; ownerToken: string }, title = 'poster') {
    const created = await gqlOk(t.url, ws.ownerToken, CreateTask, { input: { workspaceId: toGlobalId('Workspace', ws.workspaceId), title } });
    const taskGid = created.createTask.task.id;
    const taskId = Buffer.from(taskGid, 'base64').toString('utf8').split(':')[1]!;
    const turn = await db.turn.findFirstOrThrow({ where: { taskId } });
    await db.$executeRawUnsafe(
      `UPDATE turns SET generation = 1, status = 'RUNNING', lease_owner = 'test-worker', lease_expires_at = now() + interval '5 minutes', started_at = now() WHERE id = $1::uuid`,
      turn.id,
    );
    return { taskId, taskGid, turnId: turn.id, workspaceId: ws.workspaceId };
  }

  const mint = (run: { workspaceId: string; taskId: string; turnId: string }, extra: { ttlMs?: number; generation?: number; audience?: string; scopes?: string[] } = {}) =>
    mintRunCredential(
      { prisma: db },
      {
        principal,
        scopes: extra.scopes ?? ['objects:read', 'mcp:docs:search'],
        audience: extra.audience ?? AUDIENCE,
        workspaceId: run.workspaceId,
        taskId: run.taskId,
        turnId: run.turnId,
        generation: extra.generation ?? 1,
        ...(extra.ttlMs !== undefined ? { ttlMs: extra.ttlMs } : {}),
      },
    );
  const verify = (token: string, expect: { audience?: string; workspaceId?: string } = {}) =>
    verifyRunCredential({ prisma: db }, token, { audience: expect.audience ?? AUDIENCE, ...(expect.workspaceId ? { workspaceId: expect.workspaceId } : {}) });
  const post = async (query: string, variables: Record<string, unknown>, token: string) => {
    const r = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return (await r.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
  };
  const Rotate = `mutation($w: ID!) { rotateAgentSigningKey(workspaceId: $w) { kid jwksUrl } }`;

  before(async () => {
    t = await startTestApp('run_credentials');
    db = t.app.deps.prisma;
  });
  after(async () => {
    await t?.close();
  });

  test('two concurrent first uses create one key (two workers, two connection pools)', async () => {
    const gamma = await seedWorkspace(t.app, 'Gamma');
    const other = createPrisma(t.dbUrl, { max: 4 });
    try {
      const keys = await Promise.all([db, other, db, other].map((c) => currentSigningKey(c, gamma.workspaceId)));
      assert.equal(new Set(keys.map((k) => k.kid)).size, 1, 'every caller signs with the one key');
      assert.equal(await db.signingKey.count({ where: { workspaceId: gamma.workspaceId } }), 1);
      // A key past its age is replaced once, however many callers notice at the same time.
      await db.$executeRawUnsafe(`UPDATE signing_keys SET created_at = now() - interval '31 days' WHERE workspace_id = $1::uuid`, gamma.workspaceId);
      const rotated = await Promise.all([db, other, db, other].map((c) => currentSigningKey(c, gamma.workspaceId)));
      assert.equal(new Set(rotated.map((k) => k.kid)).size, 1);
      assert.notEqual(rotated[0]!.kid, keys[0]!.kid, 'the old key was rotated out');
      const rows = await db.signingKey.findMany({ where: { workspaceId: gamma.workspaceId }, orderBy: { createdAt: 'asc' } });
      assert.equal(rows.length, 2, 'one new key, not one per caller');
      const [old, current] = rows;
      assert.equal(current!.retiredAt, null);
      assert.ok(old!.retiredAt && old!.expiresAt);
      assert.equal(old!.expiresAt!.getTime() - old!.retiredAt!.getTime(), MAX_CREDENTIAL_LIFETIME_MS, 'a retired key verifies for one credential lifetime');
      // The deployment's own key (it signs the agent card) follows the same rule.
      const deployment = await Promise.all([db, other].map((c) => currentSigningKey(c, null)));
      assert.equal(deployment[0]!.kid, deployment[1]!.kid);
      assert.equal(await db.signingKey.count({ where: { workspaceId: null } }), 1);
    } finally {
      await other.$disconnect();
    }
  });

  test('the private key is stored sealed, bound to its kid, and never published', async () => {
    const key = await currentSigningKey(db, t.a.workspaceId);
    const row = await db.signingKey.findUniqueOrThrow({ where: { kid: key.kid } });
    assert.match(row.privateKeySealed, /^v1\./);
    const opened = JSON.parse(openSecret(row.privateKeySealed, `signing-key:${key.kid}`)) as { d: string };
    assert.ok(opened.d && !row.privateKeySealed.includes(opened.d), 'the private scalar is not stored in the clear');
    assert.throws(() => openSecret(row.privateKeySealed, 'signing-key:another-kid'), 'a sealed key copied to another row does not open');
    const jwks = await publicJwks(db, t.a.workspaceId);
    assert.ok(jwks.keys.length >= 1);
    for (const k of jwks.keys) assert.equal((k as { d?: string }).d, undefined, 'no private part in the JWKS');
  });

  test('a credential is an ES256 JWT bound to its run, and never outlives 10 minutes', async () => {
    const run = await leasedRun(t.a);
    const before = Date.now();
    const c = await mint(run, { ttlMs: 60 * 60_000 });
    const header = decodeProtectedHeader(c.token);
    const claims = decodeJwt(c.token);
    assert.equal(header.alg, 'ES256');
    assert.equal(header.kid, (await currentSigningKey(db, t.a.workspaceId)).kid);
    assert.equal(claims.sub, `agent:${principal.id}`);
    assert.equal(claims.aud, AUDIENCE);
    assert.equal(claims.scope, 'objects:read mcp:docs:search');
    assert.deepEqual([claims.ws, claims.task, claims.turn, claims.gen, claims.ver], [run.workspaceId, run.taskId, run.turnId, 1, 3]);
    assert.ok(typeof claims.jti === 'string' && claims.jti.length > 0);
    assert.ok(claims.exp! - claims.iat! <= 600, `an hour asked, at most 600 s given (${claims.exp! - claims.iat!})`);
    assert.ok(c.expiresAt.getTime() <= before + MAX_CREDENTIAL_LIFETIME_MS + 1000);
    const v = await verify(c.token);
    assert.deepEqual({ ...v, token: undefined }, { ...c, token: undefined });

    // Even a token signed with the workspace's own key is refused when it claims a longer life…
    const key = await currentSigningKey(db, t.a.workspaceId);
    const sign = (iat: number, exp: number) =>
      new SignJWT({ ...claims, iat, exp }).setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' }).sign(key.privateKey);
    const now = Math.floor(Date.now() / 1000);
    assert.equal(await codeOf(verify(await sign(now, now + 3600))), 'CREDENTIAL_INVALID');
    // …or was issued more than 10 minutes ago (expired, whatever its exp says).
    assert.equal(await codeOf(verify(await sign(now - 700, now + 60))), 'CREDENTIAL_EXPIRED');
  });

  test('an expired credential is CREDENTIAL_EXPIRED', async () => {
    const run = await leasedRun(t.a);
    const c = await mint(run, { ttlMs: 1 });
    // A ttl of 1 ms ends within the current second at the latest.
    await waitFor(async () => (await codeOf(verify(c.token))) === 'CREDENTIAL_EXPIRED', 'the credential to expire', { timeoutMs: 3000 });
    // Minted on a past clock: expired as soon as it is seen.
    const key = await currentSigningKey(db, t.a.workspaceId);
    const now = Math.floor(Date.now() / 1000);
    const past = await new SignJWT({ ...decodeJwt(c.token), iat: now - 300, exp: now - 5 })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' })
      .sign(key.privateKey);
    assert.equal(await codeOf(verify(past)), 'CREDENTIAL_EXPIRED');
  });

  test('a wrong audience, a tampered token and a token that is no credential are refused', async () => {
    const run = await leasedRun(t.a);
    const c = await mint(run);
    assert.equal(await codeOf(verify(c.token, { audience: 'mcp:billing' })), 'CREDENTIAL_INVALID');
    // More scopes, another task, another generation: the signature no longer matches.
    assert.equal(await codeOf(verify(tamper(c.token, (x) => (x.scope = 'objects:read mcp:docs:search jobs:order')))), 'CREDENTIAL_INVALID');
    assert.equal(await codeOf(verify(tamper(c.token, (x) => (x.exp = (x.exp as number) + 60)))), 'CREDENTIAL_INVALID');
    const [h, p, s] = c.token.split('.');
    const flipped = Buffer.from(s!, 'base64url');
    flipped[5] = flipped[5]! ^ 0xff;
    assert.equal(await codeOf(verify([h, p, flipped.toString('base64url')].join('.'))), 'CREDENTIAL_INVALID');
    // Unsigned ("alg": "none"), and not a JWT at all.
    const none = [Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url'), p, ''].join('.');
    assert.equal(await codeOf(verify(none)), 'CREDENTIAL_INVALID');
    assert.equal(await codeOf(verify('not-a-token')), 'CREDENTIAL_INVALID');
    // The untouched credential still verifies: each refusal above was the change.
    assert.equal((await verify(c.token)).taskId, run.taskId);
  });

  test("a credential of workspace A does not verify as workspace B's", async () => {
    const runA = await leasedRun(t.a);
    const runB = await leasedRun(t.b);
    const a = await mint(runA);
    assert.equal(await codeOf(verify(a.token, { workspaceId: t.b.workspaceId })), 'CREDENTIAL_INVALID');
    assert.equal((await verify(a.token, { workspaceId: t.a.workspaceId })).workspaceId, t.a.workspaceId);
    // A's key signing for B's run (a token naming B, signed by a key that is not B's) is refused.
    const keyA = await currentSigningKey(db, t.a.workspaceId);
    const b = await mint(runB);
    const forged = await new SignJWT({ ...decodeJwt(b.token) })
      .setProtectedHeader({ alg: 'ES256', kid: keyA.kid, typ: 'at+jwt' })
      .sign(keyA.privateKey);
    assert.equal(await codeOf(verify(forged)), 'CREDENTIAL_INVALID');
    // Nor does B's genuine token name A's key: the kid is looked up in B's keys only.
    const keyB = await currentSigningKey(db, t.b.workspaceId);
    const relabelled = await new SignJWT({ ...decodeJwt(b.token) })
      .setProtectedHeader({ alg: 'ES256', kid: keyB.kid, typ: 'at+jwt' })
      .sign(keyB.privateKey);
    assert.equal((await verify(relabelled)).workspaceId, t.b.workspaceId, 'the same claims signed by B’s own key verify');
    assert.equal(await codeOf(verify(tamper(relabelled, (x) => (x.ws = t.a.workspaceId)))), 'CREDENTIAL_INVALID');
  });

  test('a lost lease, an ended run and a stopped task revoke the credential', async () => {
    const run = await leasedRun(t.a);
    const c = await mint(run);
    await verify(c.token);
    // Another worker claims the turn (generation 2): the first run's credential is dead, the new one's lives.
    await db.$executeRawUnsafe(`UPDATE turns SET generation = 2, lease_owner = 'other-worker' WHERE id = $1::uuid`, run.turnId);
    assert.equal(await codeOf(verify(c.token)), 'CREDENTIAL_REVOKED');
    const next = await mint(run, { generation: 2 });
    assert.equal((await verify(next.token)).generation, 2);
    // The turn ends: its credential outlives it by nothing.
    await db.$executeRawUnsafe(`UPDATE turns SET status = 'COMPLETED', ended_at = now(), lease_expires_at = NULL WHERE id = $1::uuid`, run.turnId);
    assert.equal(await codeOf(verify(next.token)), 'CREDENTIAL_REVOKED');

    // Paused by a person: revoked too (the runtime stops the turn at its next boundary).
    const paused = await leasedRun(t.a, 'to pause');
    const p = await mint(paused);
    await gqlOk(t.url, t.a.ownerToken, SignalTask, { input: { taskId: paused.taskGid, signal: 'PAUSE', idempotencyKey: randomUUID() } });
    assert.equal(await codeOf(verify(p.token)), 'CREDENTIAL_REVOKED');
  });

  test('mid-call: a tool holding a credential is refused once the task is cancelled', async () => {
    const run = await leasedRun(t.a, 'to cancel');
    const c = await mint(run);
    // A tool that reaches another system with the run's credential: that system verifies it before
    // each effect. The call is held between its two effects while a person cancels the task.
    const effects: string[] = [];
    let resume!: () => void;
    const held = new Promise<void>((r) => (resume = r));
    let reachedHold!: () => void;
    const atHold = new Promise<void>((r) => (reachedHold = r));
    const remoteEffect = async (cred: RunCredential, what: string) => {
      await verifyRunCredential({ prisma: db }, cred.token, { audience: AUDIENCE, workspaceId: run.workspaceId });
      effects.push(what);
    };
    const call = (async () => {
      await remoteEffect(c, 'first page');
      reachedHold();
      await held;
      await remoteEffect(c, 'second page');
    })();
    await atHold;
    const cancelled = await gqlOk(t.url, t.a.ownerToken, SignalTask, { input: { taskId: run.taskGid, signal: 'CANCEL', idempotencyKey: randomUUID() } });
    assert.equal(cancelled.signalTask.task.status, 'CANCELLED');
    resume();
    assert.equal(await codeOf(call), 'CREDENTIAL_REVOKED');
    assert.deepEqual(effects, ['first page'], 'nothing was done after the cancel');
  });

  test('rotation: old credentials verify until they expire, new ones use the new kid, the JWKS lists both, then only the new', async () => {
    const run = await leasedRun(t.a, 'rotation');
    const old = await mint(run);
    const oldKid = decodeProtectedHeader(old.token).kid!;
    // Owners only.
    const asViewer = await post(Rotate, { w: toGlobalId('Workspace', t.a.workspaceId) }, t.a.viewerToken);
    assert.equal(asViewer.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    const asOtherOwner = await post(Rotate, { w: toGlobalId('Workspace', t.a.workspaceId) }, t.b.ownerToken);
    assert.ok(['FORBIDDEN', 'NOT_FOUND'].includes(asOtherOwner.errors?.[0]?.extensions?.code ?? ''), JSON.stringify(asOtherOwner.errors));
    const r = await post(Rotate, { w: toGlobalId('Workspace', t.a.workspaceId) }, t.a.ownerToken);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const newKid: string = r.data.rotateAgentSigningKey.kid;
    assert.notEqual(newKid, oldKid);
    assert.ok(r.data.rotateAgentSigningKey.jwksUrl.endsWith(`/.well-known/jwks/${encodeURIComponent(toGlobalId('Workspace', t.a.workspaceId))}.json`));

    const fresh = await mint(run);
    assert.equal(decodeProtectedHeader(fresh.token).kid, newKid);
    assert.equal((await verify(old.token)).turnId, run.turnId, 'the old key still verifies what it signed');
    assert.equal((await verify(fresh.token)).turnId, run.turnId);
    const listed = async () => (await publicJwks(db, t.a.workspaceId)).keys.map((k) => k.kid);
    assert.deepEqual(await listed(), [newKid, oldKid]);
    // Over HTTP, as a verifier elsewhere would fetch it: both keys, either token verifies.
    const res = await fetch(`${t.url}/.well-known/jwks/${encodeURIComponent(toGlobalId('Workspace', t.a.workspaceId))}.json`);
    assert.deepEqual(((await res.json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid), [newKid, oldKid]);

    // The old key's credentials have all expired (10 minutes after the rotation, moved here to now).
    await db.$executeRawUnsafe(`UPDATE signing_keys SET expires_at = now() - interval '1 second', retired_at = now() - interval '601 seconds' WHERE kid = $1`, oldKid);
    assert.deepEqual(await listed(), [newKid]);
    assert.equal(await codeOf(verify(old.token)), 'CREDENTIAL_INVALID', 'a key past its expiry verifies nothing');
    assert.equal((await verify(fresh.token)).turnId, run.turnId);

    // Rotation in the store directly: the next mint signs with the new key.
    const again = await rotateSigningKey(db, t.a.workspaceId);
    assert.equal(decodeProtectedHeader((await mint(run)).token).kid, again.kid);
    assert.deepEqual(await listed(), [again.kid, newKid]);
  });

  test('the JWKS endpoints over real HTTP verify minted tokens with createRemoteJWKSet', async () => {
    const run = await leasedRun(t.a, 'jwks');
    const c = await mint(run);
    const wsJwks = new URL(`${t.url}/.well-known/jwks/${encodeURIComponent(toGlobalId('Workspace', t.a.workspaceId))}.json`);
    const res = await fetch(wsJwks);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('cache-control') ?? '', /max-age=\d+/);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const body = (await res.json()) as { keys: Record<string, unknown>[] };
    assert.ok(body.keys.every((k) => k.d === undefined && k.alg === 'ES256' && k.use === 'sig'));

    const { payload } = await jwtVerify(c.token, createRemoteJWKSet(wsJwks), { audience: AUDIENCE, algorithms: ['ES256'] });
    assert.equal(payload.sub, `agent:${principal.id}`);
    // Workspace B's JWKS does not verify A's token.
    const bJwks = createRemoteJWKSet(new URL(`${t.url}/.well-known/jwks/${encodeURIComponent(toGlobalId('Workspace', t.b.workspaceId))}.json`));
    await assert.rejects(jwtVerify(c.token, bJwks, { audience: AUDIENCE }), (e) => e instanceof joseErrors.JWKSNoMatchingKey);

    // The deployment's key (the agent card's) at /.well-known/jwks.json.
    const deployment = await currentSigningKey(db, null);
    const card = await new SignJWT({ card: 'atelier' }).setProtectedHeader({ alg: 'ES256', kid: deployment.kid }).setIssuedAt().sign(deployment.privateKey);
    const { payload: cardClaims } = await jwtVerify(card, createRemoteJWKSet(new URL(`${t.url}/.well-known/jwks.json`)));
    assert.equal(cardClaims.card, 'atelier');
    // A workspace key is not the deployment's, and vice versa.
    await assert.rejects(jwtVerify(c.token, createRemoteJWKSet(new URL(`${t.url}/.well-known/jwks.json`)), { audience: AUDIENCE }), (e) => e instanceof joseErrors.JWKSNoMatchingKey);

    // A path that names no workspace is 404; writes are refused; reading never creates a key.
    assert.equal((await fetch(`${t.url}/.well-known/jwks/not-an-id.json`)).status, 404);
    assert.equal((await fetch(`${t.url}/.well-known/jwks/${encodeURIComponent(toGlobalId('Task', run.taskId))}.json`)).status, 404);
    assert.equal((await fetch(wsJwks, { method: 'POST', body: '{}' })).status, 405);
    const delta = await seedWorkspace(t.app, 'Delta');
    const empty = await fetch(`${t.url}/.well-known/jwks/${encodeURIComponent(toGlobalId('Workspace', delta.workspaceId))}.json`);
    assert.deepEqual(await empty.json(), { keys: [] });
    assert.equal(await db.signingKey.count({ where: { workspaceId: delta.workspaceId } }), 0);
  });
});
