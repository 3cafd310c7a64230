// The web app's server side: a token is exchanged for an httpOnly session cookie; GraphQL accepts
// the cookie (with the CSRF header) as well as bearer tokens; a cookie WebSocket must come from our
// origin; sign-out revokes the session; generated files are served to members only, by name, with
// no way out of the files directory.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { persistedQueryExtension, webDocumentId } from './helpers/trusted.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { ViewerQuery } from './helpers/documents.ts';

let t: TestApp;
let dir: string;
before(async () => {
  t = await startTestApp('websession');
  dir = mkdtempSync(join(tmpdir(), 'atelier-files-'));
});
after(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

async function signIn(token: string, headers: Record<string, string> = { 'x-atelier-csrf': '1' }) {
  const res = await fetch(`${t.url}/auth/session`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ token }) });
  return { res, body: (await res.json()) as { ok: boolean; message?: string }, cookie: res.headers.get('set-cookie') };
}
const cookieOf = (setCookie: string) => setCookie.split(';')[0]!;
const viewer = (headers: Record<string, string>) =>
  fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    // With the cookie, as the web app: its trusted document by id; with a token, the document itself.
    body: JSON.stringify(headers.cookie ? { documentId: webDocumentId('WebViewer') } : { query: print(ViewerQuery) }),
  }).then(
    async (r) => ({ status: r.status, body: (await r.json()) as { data?: { viewer: { user: { name: string } } }; errors?: { extensions?: { code?: string } }[] } }),
  );

test('sign-in exchanges a token for an httpOnly SameSite=Strict cookie holding a new session token', async () => {
  const bad = await signIn('atl_nope');
  assert.equal(bad.res.status, 401);
  assert.match(bad.body.message!, /not valid/);
  const noCsrf = await signIn(t.a.ownerToken, {});
  assert.equal(noCsrf.res.status, 403);
  const ok = await signIn(t.a.ownerToken);
  assert.equal(ok.res.status, 200);
  assert.match(ok.cookie!, /^atelier_session=atl_/);
  assert.match(ok.cookie!, /HttpOnly/);
  assert.match(ok.cookie!, /SameSite=Strict/);
  assert.ok(!ok.cookie!.includes(t.a.ownerToken), 'a new token, not the one signed in with');
});

test('GraphQL accepts the cookie with the CSRF header, refuses it without; bearer tokens still work', async () => {
  const { cookie } = await signIn(t.a.ownerToken);
  const c = cookieOf(cookie!);
  const withHeader = await viewer({ cookie: c, 'x-atelier-csrf': '1' });
  assert.equal(withHeader.body.data?.viewer.user.name, 'Owner Alpha');
  const without = await viewer({ cookie: c });
  assert.equal(without.body.errors?.[0]?.extensions?.code, 'FORBIDDEN');
  const bearer = await viewer({ authorization: `Bearer ${t.a.ownerToken}` });
  assert.equal(bearer.body.data?.viewer.user.name, 'Owner Alpha');
});

test('a cookie WebSocket works from our origin and is refused from another', async () => {
  const { cookie } = await signIn(t.a.ownerToken);
  const connect = (origin: string) =>
    new Promise<string>((resolve) => {
      const client = createClient({
        url: t.url.replace(/^http/, 'ws') + '/graphql',
        webSocketImpl: class extends WebSocket {
          constructor(url: string, protocols: string[]) {
            super(url, protocols, { headers: { cookie: cookieOf(cookie!), origin } });
          }
        },
        retryAttempts: 0,
      });
      // Settles on the server's answer (a result, or the socket closed with a code), whatever it
      // takes; then the client is disposed.
      const settle = (outcome: string) => {
        resolve(outcome);
        void client.dispose();
      };
      client.subscribe(
        { query: '', extensions: persistedQueryExtension('WebViewer') },
        {
          next: (r) => settle(r.data ? 'ok' : 'error'),
          error: (e) => settle(`closed ${(e as { code?: number }).code ?? ''}`),
          complete: () => {},
        },
      );
    });
  assert.equal(await connect(t.url), 'ok');
  assert.match(await connect('http://evil.example'), /^closed 4401/);
});

test('sign-out revokes the session token and clears the cookie', async () => {
  const { cookie } = await signIn(t.a.ownerToken);
  const c = cookieOf(cookie!);
  const out = await fetch(`${t.url}/auth/signout`, { method: 'POST', headers: { cookie: c, 'x-atelier-csrf': '1' } });
  assert.equal(out.status, 200);
  assert.match(out.headers.get('set-cookie')!, /Max-Age=0/);
  const after = await viewer({ cookie: c, 'x-atelier-csrf': '1' });
  assert.equal(after.body.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
  // The token signed in with is untouched.
  assert.equal((await viewer({ authorization: `Bearer ${t.a.ownerToken}` })).body.data?.viewer.user.name, 'Owner Alpha');
});

test('files: members only, by stored name, no traversal', async () => {
  const path = join(dir, 'up_123.png');
  writeFileSync(path, Buffer.from('89504e470d0a1a0a', 'hex'));
  writeFileSync(join(dir, 'secret.txt'), 'no');
  await t.app.deps.prisma.generationJob.create({
    data: {
      workspaceId: t.a.workspaceId,
      kind: 'IMAGE',
      provider: 'simulated',
      idempotencyKey: 'files-test',
      prompt: 'x',
      params: {},
      status: 'SUCCEEDED',
      upstreamJobId: 'up_123',
      result: { files: [{ path, mime: 'image/png', bytes: 8 }] },
    },
  });
  const get = (name: string, token: string | null) =>
    fetch(`${t.url}/files/${name}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const ok = await get('up_123.png', t.a.readToken);
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get('content-type'), 'image/png');
  assert.equal((await ok.arrayBuffer()).byteLength, 8);
  const { cookie } = await signIn(t.a.ownerToken);
  const byCookie = await fetch(`${t.url}/files/up_123.png`, { headers: { cookie: cookieOf(cookie!) } });
  assert.equal(byCookie.status, 200, 'an <img> sends the cookie without the CSRF header');
  assert.equal((await get('up_123.png', null)).status, 401);
  assert.equal((await get('up_123.png', t.b.ownerToken)).status, 404, 'another workspace sees nothing');
  for (const evil of ['..%2Fsecret.txt', '%2E%2E%2F%2E%2E%2Fetc%2Fpasswd', 'secret.txt', 'up_123.txt']) {
    assert.equal((await get(evil, t.a.ownerToken)).status, 404, evil);
  }
});
