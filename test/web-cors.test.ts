// The session cookie in a real browser: a page served from another port of the same host (same
// site, so the SameSite=Strict cookie is sent) can neither read nor write through it; a page of an
// allow-listed origin can; the server's own pages can.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { toGlobalId } from './helpers/clients.ts';
import { launch, shot } from './helpers/web.ts';
import { webDocumentId } from './helpers/trusted.ts';

let t: TestApp;
let browser: Browser;
let page: Page;
const servers: Server[] = [];

/** A plain page on its own port: another origin of the same host. */
async function origin(): Promise<string> {
  const s = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><html><body><h1>another site</h1></body></html>');
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  servers.push(s);
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

let foreign: string;
let listed: string;

before(async () => {
  foreign = await origin();
  listed = await origin();
  t = await startTestApp('webcors', { allowedOrigins: [listed] });
  ({ browser, page } = await launch());
  // Sign in on the server's own origin: the cookie is set for 127.0.0.1.
  await page.goto(`${t.url}/health`);
  const signedIn = await page.evaluate(async (token) => {
    const r = await fetch('/auth/session', { method: 'POST', headers: { 'content-type': 'application/json', 'x-atelier-csrf': '1' }, body: JSON.stringify({ token }) });
    return r.status;
  }, t.a.ownerToken);
  assert.equal(signedIn, 200);
});

after(async () => {
  await browser?.close();
  await t?.close();
  for (const s of servers) s.close();
});

type Attempt = { ok: boolean; status?: number; body?: string; error?: string };
// With the cookie the browser sends what the web app sends: a trusted document by its id (a bare
// operation name here, e.g. WebViewer); anything else is sent as a document of its own.
const attempt = (p: Page, api: string, query: string, variables: Record<string, unknown> = {}) =>
  p.evaluate(
    async ({ api, body }): Promise<Attempt> => {
      try {
        const r = await fetch(`${api}/graphql`, {
          method: 'POST',
          credentials: 'include',
          headers: { 'content-type': 'application/json', 'x-atelier-csrf': '1' },
          body,
        });
        return { ok: true, status: r.status, body: await r.text() };
      } catch (e) {
        return { ok: false, error: String(e) };
      }
    },
    { api, body: JSON.stringify(/^Web\w+$/.test(query) ? { documentId: webDocumentId(query), variables } : { query, variables }) },
  );

const CREATE = 'mutation($i: CreateTaskInput!) { createTask(input: $i) { task { id } } }';
const send = (text: string) => ({ input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), text, idempotencyKey: text } });

describe('the session cookie across origins, in Chromium', () => {
  test("the server's own page reads with the cookie", async () => {
    await page.goto(`${t.url}/health`);
    const r = await attempt(page, t.url, 'WebViewer');
    assert.ok(r.ok, r.error);
    assert.match(r.body!, /Owner Alpha/);
  });

  test('a page on another port can neither read nor write with the cookie', async () => {
    const tasks = await t.app.deps.prisma.task.count();
    const messages = await t.app.deps.prisma.message.count();
    await page.goto(foreign);
    const read = await attempt(page, t.url, 'WebViewer');
    assert.equal(read.ok, false, `read succeeded: ${read.body}`);
    const write = await attempt(page, t.url, 'WebSendMessage', send('from another site'));
    assert.equal(write.ok, false, `write succeeded: ${write.body}`);
    // A "simple" cross-site request needs no preflight: it reaches the server, which must refuse it.
    await page.evaluate(async ({ api, body }) => {
      await fetch(`${api}/graphql`, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body }).catch(() => {});
    }, { api: t.url, body: JSON.stringify({ query: CREATE, variables: { i: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: 'simple request' } } }) });
    await shot(page, 'cors-foreign-origin');
    assert.equal(await t.app.deps.prisma.task.count(), tasks);
    assert.equal(await t.app.deps.prisma.message.count(), messages, 'no message was written either');
  });

  test('an allow-listed origin reads and writes with the cookie', async () => {
    await page.goto(listed);
    const read = await attempt(page, t.url, 'WebViewer');
    assert.ok(read.ok, read.error);
    assert.match(read.body!, /Owner Alpha/);
    const write = await attempt(page, t.url, 'WebSendMessage', send('from the listed site'));
    assert.ok(write.ok, write.error);
    assert.match(write.body!, /"sendMessage":\{/);
  });
});
