// Trusted documents: the web app (session cookie) runs only its persisted operations, sent by id;
// integrators' tokens may send documents of their own until their workspace switches that off.
// Over HTTP and over the socket alike; a refused document changes nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parse, validate } from 'graphql';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { schema } from '../server/graphql/schema.ts';
import { trustedDocuments } from '../server/http/trusted-documents.ts';
import { appendNow } from '../server/channel/unit-of-work.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { toGlobalId } from './helpers/clients.ts';
import { persistedQueryExtension, webDocumentId } from './helpers/trusted.ts';
import { waitFor } from './helpers/wait.ts';

let t: TestApp;
let cookie = '';
before(async () => {
  t = await startTestApp('trusteddocs');
  const res = await fetch(`${t.url}/auth/session`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-atelier-csrf': '1' }, body: JSON.stringify({ token: t.a.ownerToken }) });
  cookie = res.headers.get('set-cookie')!.split(';')[0]!;
});
after(async () => {
  await t.close();
});

type Answer = { status: number; data?: any; errors?: { message: string; extensions?: { code?: string; reason?: string } }[] };
async function post(body: Record<string, unknown>, auth: { cookie: string } | { token: string }): Promise<Answer> {
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...('cookie' in auth ? { cookie: auth.cookie, 'x-atelier-csrf': '1', origin: t.url } : { authorization: `Bearer ${auth.token}` }),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, ...((await res.json()) as object) };
}
const code = (a: Answer) => a.errors?.[0]?.extensions?.code;
const OWN_QUERY = '{ viewer { user { name } } }';
const sendOwn = (text: string) => ({
  query: 'mutation($i: SendMessageInput!) { sendMessage(input: $i) { message { id } } }',
  variables: { i: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), text, idempotencyKey: text } },
});

test('every operation of the web app is a valid document of this schema', () => {
  const docs = trustedDocuments();
  assert.ok(docs.size >= 10, `the web app's operations are in the manifest (${docs.size})`);
  for (const [id, text] of docs) assert.deepEqual(validate(schema, parse(text)).map((e) => e.message), [], id);
});

test('the web app\'s session runs its trusted documents by id, and nothing else', async () => {
  const byId = await post({ documentId: webDocumentId('WebViewer') }, { cookie });
  assert.equal(byId.errors, undefined);
  assert.equal(byId.data.viewer.user.name, 'Owner Alpha');

  const own = await post({ query: OWN_QUERY }, { cookie });
  assert.equal(code(own), 'FORBIDDEN');
  assert.match(own.errors![0]!.message, /only trusted documents/);
  assert.equal(own.data ?? null, null);

  const before = await t.app.deps.prisma.message.count();
  const write = await post(sendOwn('cookie-own-document'), { cookie });
  assert.equal(code(write), 'FORBIDDEN');
  assert.equal(await t.app.deps.prisma.message.count(), before, 'a refused document changes nothing');

  // GraphiQL (served while ATELIER_GRAPHIQL is on, as here) marks its requests: a person writes
  // documents of their own there.
  const graphiql = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-atelier-csrf': '1', origin: t.url, 'x-atelier-graphiql': '1' },
    body: JSON.stringify({ query: OWN_QUERY }),
  }).then((r) => r.json() as Promise<Answer>);
  assert.equal(t.app.deps.config.graphiql, true);
  assert.equal(graphiql.errors, undefined);
  assert.equal(graphiql.data.viewer.user.name, 'Owner Alpha');

  const unknown = await post({ documentId: `sha256:${'0'.repeat(64)}` }, { cookie });
  assert.equal(code(unknown), 'BAD_USER_INPUT');
  assert.match(unknown.errors![0]!.message, /not one of the trusted documents/);
});

test('tokens may send documents of their own until the workspace switches that off', async () => {
  const token = { token: t.a.ownerToken };
  assert.equal((await post({ query: OWN_QUERY }, token)).data.viewer.user.name, 'Owner Alpha');
  const set = (on: boolean) =>
    post(
      { query: 'mutation($i: UpdateWorkspaceSettingsInput!) { updateWorkspaceSettings(input: $i) { settings { trustedDocumentsOnly } } }', variables: { i: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), trustedDocumentsOnly: on } } },
      token,
    );
  const on = await set(true);
  assert.equal(on.errors, undefined);
  assert.equal(on.data.updateWorkspaceSettings.settings.trustedDocumentsOnly, true);

  const refused = await post({ query: OWN_QUERY }, token);
  assert.equal(code(refused), 'FORBIDDEN');
  assert.match(refused.errors![0]!.message, /accepts only trusted documents/);
  const before = await t.app.deps.prisma.message.count();
  assert.equal(code(await post(sendOwn('token-own-document'), token)), 'FORBIDDEN');
  assert.equal(await t.app.deps.prisma.message.count(), before);
  // A trusted document still runs for the token, and other workspaces are not affected.
  assert.equal((await post({ documentId: webDocumentId('WebViewer') }, token)).data.viewer.user.name, 'Owner Alpha');
  assert.equal((await post({ query: OWN_QUERY }, { token: t.b.ownerToken })).errors, undefined);

  // Switched back on the workspace's own terms: by its trusted document (the settings form's).
  const off = await post({ documentId: webDocumentId('WebUpdateSettings'), variables: { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), trustedDocumentsOnly: false } } }, token);
  assert.equal(off.errors, undefined, JSON.stringify(off.errors));
  assert.equal((await post({ query: OWN_QUERY }, token)).errors, undefined);
});

test('over the socket: the cookie subscribes by id only; a token with its own document works', async () => {
  const outcome = (headers: Record<string, string>, connectionParams: Record<string, unknown>, payload: { query: string; extensions?: Record<string, unknown> }) =>
    new Promise<string>((resolve) => {
      const client = createClient({
        url: t.url.replace(/^http/, 'ws') + '/graphql',
        connectionParams,
        webSocketImpl: class extends WebSocket {
          constructor(url: string, protocols: string[]) {
            super(url, protocols, { headers });
          }
        },
        retryAttempts: 0,
      });
      let settled = false;
      const settle = (o: string) => {
        settled = true;
        resolve(o);
        void client.dispose();
      };
      client.subscribe({ ...payload, variables: { workspaceId: toGlobalId('Workspace', t.a.workspaceId) } }, {
        next: (r) => settle(r.data ? 'data' : `error ${(r.errors as { extensions?: { code?: string } }[] | undefined)?.[0]?.extensions?.code}`),
        error: (e) => settle(`error ${Array.isArray(e) ? (e[0] as { extensions?: { code?: string } }).extensions?.code : String(e)}`),
        complete: () => settle('complete'),
      });
      // A live subscription answers once an event is written after it started: write one per check
      // until the subscription settles (an accepted one with data, a refused one with its error).
      void waitFor(
        async () => {
          if (settled) return true;
          await appendNow(t.app.deps, probe, [{ type: 'NOTE', actor: { kind: 'AGENT' }, payload: { text: 'probe' } }]);
          return false;
        },
        'the subscription to settle',
        { intervalMs: 100, timeoutMs: 30_000 },
      ).catch((e: Error) => settle(`timeout ${e.message}`));
    });
  const probe = (await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'socket probe' } })).id;
  const asWebApp = { cookie, origin: t.url };
  const own = { query: 'subscription($workspaceId: ID) { workspaceEvents(workspaceId: $workspaceId) { cursor } }' };
  assert.equal(await outcome(asWebApp, {}, { query: '', extensions: persistedQueryExtension('WebWorkspaceEvents') }), 'data');
  assert.equal(await outcome(asWebApp, {}, own), 'error FORBIDDEN');
  assert.equal(await outcome(asWebApp, {}, { query: own.query, extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } }), 'error BAD_USER_INPUT');
  assert.equal(await outcome({}, { authorization: `Bearer ${t.a.ownerToken}` }, own), 'data');
});
