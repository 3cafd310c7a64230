// The API boundary, origins and sessions: which origins the session cookie works from (and what
// CORS grants), and sessions that never outlive their token. The rest of the boundary:
// boundary-mutations.test.ts and boundary-transports.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import WebSocket from 'ws';
import { createClient as createWsClient } from 'graphql-ws';
import { createToken } from '../server/auth/create-token.ts';
import { revokeToken } from '../server/auth/revoke-token.ts';
import { eventually } from './helpers/produce.ts';
import { codes, LISTED, OTHER, post, sessionCookie, t, useBoundaryApp, wsId } from './helpers/boundary.ts';

useBoundaryApp();

describe('origins and CORS', () => {
  const preflight = (origin: string, headers = 'content-type,x-atelier-csrf') =>
    fetch(`${t.url}/graphql`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers } });

  test('a foreign origin gets no credentialed CORS and cannot send the CSRF header', async () => {
    const r = await preflight(OTHER);
    // Plain CORS for bearer tokens: the origin may be echoed, but never with credentials.
    assert.equal(r.headers.get('access-control-allow-credentials'), null);
    assert.doesNotMatch(r.headers.get('access-control-allow-headers') ?? '', /x-atelier-csrf/i);
  });

  test('the server origin and the allow-list get credentialed CORS', async () => {
    for (const origin of [t.url, LISTED]) {
      const r = await preflight(origin);
      assert.equal(r.headers.get('access-control-allow-origin'), origin);
      assert.equal(r.headers.get('access-control-allow-credentials'), 'true');
      assert.match(r.headers.get('access-control-allow-headers') ?? '', /x-atelier-csrf/i);
    }
  });

  test('a bearer-token request never gets credentialed CORS, from any origin', async () => {
    for (const origin of [t.url, LISTED, OTHER]) {
      const r = await post('{ viewer { user { id } } }', {}, { origin }, t.a.ownerToken);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('access-control-allow-credentials'), null, origin);
    }
  });

  test('the session cookie is refused from a foreign origin (reads and writes), accepted from the allow-list', async () => {
    const { cookie } = await sessionCookie(t.a.ownerToken);
    assert.ok(cookie);
    const headers = (origin: string) => ({ cookie: `atelier_session=${encodeURIComponent(cookie!)}`, 'x-atelier-csrf': '1', origin });
    const read = await post('{ viewer { user { id } } }', {}, headers(OTHER));
    assert.deepEqual(codes(read), ['FORBIDDEN']);
    assert.equal(read.body.data ?? null, null);
    const before = await t.app.deps.prisma.task.count();
    const write = await post('mutation($i: CreateTaskInput!) { createTask(input: $i) { task { id } } }', { i: { workspaceId: wsId(), title: 'cross-origin' } }, headers(OTHER));
    assert.deepEqual(codes(write), ['FORBIDDEN']);
    assert.equal(await t.app.deps.prisma.task.count(), before);
    const ok = await post('{ viewer { user { id } } }', {}, headers(LISTED));
    assert.equal(ok.body.errors, undefined);
    assert.ok(ok.body.data.viewer.user.id);
    const own = await post('{ viewer { user { id } } }', {}, headers(t.url));
    assert.equal(own.body.errors, undefined);
  });

  test('signing in from a foreign origin is refused', async () => {
    const r = await sessionCookie(t.a.ownerToken, OTHER);
    assert.equal(r.status, 403);
    assert.equal(r.cookie, null);
  });

  test('a cookie WebSocket from a foreign origin is not authenticated (4401)', async () => {
    const { cookie } = await sessionCookie(t.a.ownerToken);
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => {
      const ws = new WebSocket(t.url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws', {
        headers: { cookie: `atelier_session=${encodeURIComponent(cookie!)}`, origin: OTHER },
      });
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init' })));
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    assert.equal(closed.code, 4401);
    assert.match(closed.reason, /^UNAUTHENTICATED/);
  });
});

describe('sessions never outlive their token', () => {
  test('revoking a token ends the sessions made from it, and sessions of sessions', async () => {
    const made = await createToken(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, name: 'to revoke', scopes: ['READ', 'WRITE'] });
    const s1 = await sessionCookie(made.token);
    assert.equal(s1.status, 200);
    const s2 = await sessionCookie(s1.cookie!); // a session exchanged again
    assert.equal(s2.status, 200);
    for (const s of [s1.cookie!, s2.cookie!]) assert.equal((await post('{ viewer { user { id } } }', {}, {}, s)).body.errors, undefined);
    await revokeToken(t.app.deps.prisma, made.token);
    for (const s of [made.token, s1.cookie!, s2.cookie!]) assert.deepEqual(codes(await post('{ viewer { user { id } } }', {}, {}, s)), ['UNAUTHENTICATED']);
  });

  test('a session never expires later than the token it was made from, however often it is exchanged', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000);
    const made = await createToken(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, name: 'short', scopes: ['READ'], expiresAt });
    let current = made.token;
    for (let i = 0; i < 3; i++) {
      const s = await sessionCookie(current);
      assert.equal(s.status, 200);
      assert.ok(new Date(s.body.expiresAt).getTime() <= expiresAt.getTime(), `exchange ${i} extended the expiry`);
      current = s.cookie!;
    }
    const rows = await t.app.deps.prisma.apiToken.findMany({ where: { parentTokenId: made.id } });
    assert.equal(rows.length, 3);
    for (const r of rows) assert.ok(r.expiresAt && r.expiresAt.getTime() <= expiresAt.getTime());
  });

  test('a live WebSocket of a revoked token is closed with 4401 within seconds, ending its subscriptions', async () => {
    const made = await createToken(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, name: 'ws', scopes: ['READ'] });
    let closeCode = 0;
    const client = createWsClient({
      url: t.url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${made.token}` },
      retryAttempts: 0,
      on: { closed: (e) => (closeCode = (e as { code: number }).code) },
    });
    let ended: unknown = null;
    let acked = false;
    client.on('connected', () => (acked = true));
    client.subscribe({ query: `subscription($w: ID!) { workspaceEvents(workspaceId: $w) { cursor } }`, variables: { w: wsId() } }, {
      next: () => {},
      error: (e) => (ended = e ?? 'error'),
      complete: () => (ended = 'complete'),
    });
    await eventually(() => acked, 'the socket to open');
    const revokedAt = Date.now();
    await revokeToken(t.app.deps.prisma, made.token);
    await eventually(() => closeCode !== 0 && ended !== null, 'the socket to close', 10_000);
    assert.equal(closeCode, 4401);
    assert.ok(Date.now() - revokedAt < 10_000);
    await client.dispose();
  });
});
