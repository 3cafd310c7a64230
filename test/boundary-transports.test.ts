// The API boundary, transports that agree: mutations and rate limits over graphql-ws, one error
// code per bad document, 4401 on bad tokens.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { wsClient } from './helpers/clients.ts';
import { codes, post, t, useBoundaryApp, wsId } from './helpers/boundary.ts';

useBoundaryApp();

describe('transports agree', () => {
  test('mutations work over graphql-ws', async () => {
    const client = wsClient(t.url, t.a.ownerToken);
    const result = await new Promise<any>((resolve, reject) => {
      client.subscribe({ query: 'mutation($i: CreateTaskInput!) { createTask(input: $i) { task { title } } }', variables: { i: { workspaceId: wsId(), title: 'over a socket' } } }, {
        next: resolve,
        error: reject,
        complete: () => {},
      });
    });
    assert.equal(result.errors, undefined, JSON.stringify(result.errors));
    assert.equal(result.data.createTask.task.title, 'over a socket');
    await client.dispose();
  });

  test('the same bad document gets the same code over HTTP, SSE and WebSocket', async () => {
    const docs = ['{ viewer { nope } }', '{ viewer { user { id } }', 'subscription { nope }', `{ ${'viewer { '.repeat(3000)} }`];
    for (const query of docs) {
      const http = await post(query, {}, {}, t.a.ownerToken);
      const httpCodes = codes(http);
      const sseRes = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${t.a.ownerToken}` },
        body: JSON.stringify({ query }),
      });
      const sseText = await sseRes.text();
      const sseCodes = [...sseText.matchAll(/"code":"([A-Z_]+)"/g)].map((m) => m[1]);
      const client = wsClient(t.url, t.a.ownerToken);
      const wsErrors = await new Promise<any[]>((resolve) => {
        client.subscribe({ query }, { next: (r) => resolve((r.errors as any[]) ?? []), error: (e) => resolve(Array.isArray(e) ? e : [e]), complete: () => resolve([]) });
      });
      await client.dispose();
      const wsCodes = wsErrors.map((e) => e.extensions?.code);
      assert.ok(httpCodes.length > 0, query.slice(0, 40));
      assert.ok(!httpCodes.includes('INTERNAL'));
      assert.deepEqual([...new Set(wsCodes)], [...new Set(httpCodes)], `ws vs http for ${query.slice(0, 40)}`);
      assert.deepEqual([...new Set(sseCodes)], [...new Set(httpCodes)], `sse vs http for ${query.slice(0, 40)}`);
      for (const e of wsErrors) assert.doesNotMatch(String(e.message), /call stack/i);
    }
  });

  test('a missing or bad token on a WebSocket closes it with 4401 UNAUTHENTICATED', async () => {
    for (const token of [null, 'atl_not-a-real-token']) {
      const closed = await new Promise<{ code: number; reason: string }>((resolve) => {
        const ws = new WebSocket(t.url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
        ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: token ? { authorization: `Bearer ${token}` } : {} })));
        ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
      });
      assert.equal(closed.code, 4401, String(token));
      assert.match(closed.reason, /^UNAUTHENTICATED/);
    }
  });
});

describe('rate limits over each transport', () => {
  let r: TestApp;
  before(async () => {
    r = await startTestApp('ratelimit', { rateLimitPerMinute: 3 });
  });
  after(async () => {
    await r.close();
  });

  test('HTTP answers 429 with Retry-After; a WebSocket fails the one operation and keeps the socket', async () => {
    const client = wsClient(r.url, r.a.ownerToken);
    let closed = false;
    client.on('closed', () => (closed = true));
    const run = () =>
      new Promise<any>((resolve) => {
        client.subscribe({ query: '{ viewer { user { id } } }' }, { next: resolve, error: (e) => resolve({ errors: Array.isArray(e) ? e : [e] }), complete: () => {} });
      });
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await run());
    const limited = results.filter((x) => x.errors?.[0]?.extensions?.code === 'RATE_LIMITED');
    assert.ok(limited.length >= 2, JSON.stringify(results));
    assert.equal(closed, false);
    const res = await fetch(`${r.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${r.a.ownerToken}` },
      body: JSON.stringify({ query: '{ viewer { user { id } } }' }),
    });
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers.get('retry-after')) >= 1, `retry-after: ${res.headers.get('retry-after')}`);
    await client.dispose();
  });
});
