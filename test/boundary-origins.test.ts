// The API boundary, origins and sessions: which origins the session cookie works from (and what
// CORS grants), and sessions that never outlive their token. The rest of the boundary:
// boundary-mutations.test.ts and boundary-transports.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import WebSocket from 'ws';
import { createClient as createWsClient } from 'graphql-ws';
import { createToken } from '../server/auth/create-token.ts';
import { revokeToken } from '../server/auth/revoke-token.ts';
import { hashToken } from '../server/auth/tokens.ts';
import { waitFor } from './helpers/wait.ts';
import { persistedQueryExtension } from './helpers/trusted.ts';
import { codes, LISTED, OTHER, post, sessionCookie, t, useBoundaryApp, wsId } from './helpers/boundary.ts';

useBoundaryApp();
// How often the boundary app re-checks the credential of an open socket (useBoundaryApp).
const REAUTH_MS = 200;

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
    const read = await post('WebViewer', {}, headers(OTHER));
    assert.deepEqual(codes(read), ['FORBIDDEN']);
    assert.equal(read.body.data ?? null, null);
    const before = await t.app.deps.prisma.message.count();
    const write = await post('WebSendMessage', { input: { workspaceId: wsId(), text: 'cross-origin', idempotencyKey: 'cross-origin' } }, headers(OTHER));
    assert.deepEqual(codes(write), ['FORBIDDEN']);
    assert.equal(await t.app.deps.prisma.message.count(), before);
    const ok = await post('WebViewer', {}, headers(LISTED));
    assert.equal(ok.body.errors, undefined);
    assert.ok(ok.body.data.viewer.user.id);
    const own = await post('WebViewer', {}, headers(t.url));
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

  // A live socket with one subscription on it that has received an event (so the server runs it:
  // a revocation that only an operation sent after it would notice is not enough). A session
  // socket is opened as the web app opens it: the session cookie and the page's Origin on the
  // upgrade request, nothing in the connection params; a token socket sends the token in them.
  const liveSocket = async (cred: { cookie: string } | { bearer: string }) => {
    const state = { acked: false, events: 0, closed: null as null | { code: number; reason: string; at: number }, ended: null as null | { how: string; at: number } };
    const headers = 'cookie' in cred ? { cookie: `atelier_session=${encodeURIComponent(cred.cookie)}`, origin: t.url } : {};
    const client = createWsClient({
      url: t.url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: class extends WebSocket {
        constructor(url: string, protocols: string[]) {
          super(url, protocols, { headers });
        }
      },
      ...('bearer' in cred ? { connectionParams: { authorization: `Bearer ${cred.bearer}` } } : {}),
      retryAttempts: 0,
      on: {
        connected: () => (state.acked = true),
        closed: (e) => (state.closed = { code: (e as { code: number }).code, reason: String((e as { reason?: unknown }).reason ?? ''), at: Date.now() }),
      },
    });
    // As the web app subscribes: its trusted document by id with the cookie, a document with a token.
    const subscription =
      'cookie' in cred
        ? { query: '', extensions: persistedQueryExtension('WebWorkspaceEvents'), variables: { workspaceId: wsId() } }
        : { query: `subscription($w: ID!) { workspaceEvents(workspaceId: $w) { cursor } }`, variables: { w: wsId() } };
    client.subscribe(subscription, {
      next: () => void state.events++,
      error: () => (state.ended = { how: 'error', at: Date.now() }),
      complete: () => (state.ended = { how: 'complete', at: Date.now() }),
    });
    await waitFor(() => state.acked, 'the socket to be accepted');
    const seen = state.events;
    const made = await post('mutation($i: CreateTaskInput!) { createTask(input: $i) { task { id } } }', { i: { workspaceId: wsId(), title: 'seen live' } }, {}, t.a.ownerToken);
    assert.equal(made.body.errors, undefined);
    await waitFor(() => state.events > seen, 'the subscription on the socket to receive an event');
    return { client, state };
  };

  /** The socket closes with 4401 within one re-check interval of `from` (plus the check itself), ending its subscription. */
  const closedWithin = async (s: Awaited<ReturnType<typeof liveSocket>>, from: number, what: string) => {
    await waitFor(() => s.state.closed && s.state.ended, `the socket to close after ${what}`, { timeoutMs: 10_000 });
    const { closed, ended } = s.state;
    assert.equal(closed!.code, 4401, what);
    assert.match(closed!.reason, /^UNAUTHENTICATED/, what);
    assert.equal(ended!.how, 'error', `${what}: the subscription ends with the socket`);
    const took = closed!.at - from;
    // One interval at most until the next re-check, then one credential look-up and the close frame;
    // the second is a bound for a loaded machine, not a latency.
    assert.ok(took <= REAUTH_MS + 1000, `${what}: closed ${took} ms later (re-check every ${REAUTH_MS} ms)`);
    console.log(`socket closed ${took} ms after ${what}`);
    await s.client.dispose();
  };

  test('a live WebSocket of a revoked token is closed with 4401 within one re-check interval, ending its subscriptions', async () => {
    const made = await createToken(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, name: 'ws', scopes: ['READ'] });
    const s = await liveSocket({ bearer: made.token });
    const at = Date.now();
    await revokeToken(t.app.deps.prisma, made.token);
    await closedWithin(s, at, 'revoking its token');
  });

  test('a live cookie WebSocket is closed with 4401 when its session is signed out, ending its subscriptions', async () => {
    const { cookie } = await sessionCookie(t.a.ownerToken);
    const s = await liveSocket({ cookie: cookie! });
    const other = await liveSocket({ cookie: (await sessionCookie(t.a.ownerToken)).cookie! });
    const out = await fetch(`${t.url}/auth/signout`, { method: 'POST', headers: { cookie: `atelier_session=${encodeURIComponent(cookie!)}`, 'x-atelier-csrf': '1', origin: t.url } });
    assert.equal(out.status, 200);
    const at = Date.now();
    await closedWithin(s, at, 'sign-out');
    // Another session of the same token is not signed out, and its socket stays open.
    assert.equal(other.state.closed, null);
    assert.equal(other.state.ended, null);
    await other.client.dispose();
  });

  test('a live cookie WebSocket is closed with 4401 when the token its session was made from is revoked', async () => {
    const made = await createToken(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, name: 'signed in with', scopes: ['READ', 'WRITE'] });
    const { cookie } = await sessionCookie(made.token);
    const s = await liveSocket({ cookie: cookie! });
    const at = Date.now();
    // What `npm run atelier -- revoke <token>` runs.
    assert.equal((await revokeToken(t.app.deps.prisma, made.token)).revoked, 2);
    await closedWithin(s, at, 'revoking the token');
  });

  test('a live cookie WebSocket is closed with 4401 when its session expires', async () => {
    const { cookie } = await sessionCookie(t.a.ownerToken);
    const s = await liveSocket({ cookie: cookie! });
    // The session's expiry brought to a moment just ahead (the clock cannot be moved 30 days):
    // the socket is open until then and closed after, by the expiry alone.
    const expiresAt = new Date(Date.now() + 300);
    const row = await t.app.deps.prisma.apiToken.update({ where: { tokenHash: hashToken(cookie!) }, data: { expiresAt } });
    assert.equal(row.revokedAt, null);
    await closedWithin(s, expiresAt.getTime(), 'the session expired');
    assert.ok(s.state.closed!.at >= expiresAt.getTime(), 'not closed before the session expired');
  });
});
