// GraphQL over HTTP and bad input: every class of bad input gets a typed error with a stable
// extensions.code, a fitting status, no stack trace or SQL, and changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { CreateTask, TaskEventsPage, TaskQuery, UpdateTask, ViewerQuery, WorkspaceEventsSub } from './helpers/documents.ts';
import { collect, wsClient } from './helpers/clients.ts';

let t: TestApp;
let taskGid: string;
before(async () => {
  // The cost limit leaves room for TaskEventsPage (a variable page of events counts as 500) so its
  // bad arguments reach the resolver.
  t = await startTestApp('http', { maxBodyBytes: 50_000, maxQueryDepth: 8, maxQueryCost: 6_000 });
  const d = await gqlOk(t.url, t.a.ownerToken, CreateTask, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: 'x' } });
  taskGid = d.createTask.task.id;
});
after(async () => {
  await t.close();
});

const LEAKS = /stack|prisma|postgres|SELECT |INSERT |UPDATE |invocation|\.ts:|node_modules|constraint/i;

async function raw(init: { method?: string; body?: string; headers?: Record<string, string>; query?: string }) {
  const res = await fetch(`${t.url}/graphql${init.query ?? ''}`, {
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${t.a.ownerToken}`, ...init.headers },
    body: init.body,
  });
  const text = await res.text();
  return { status: res.status, text, json: (() => { try { return JSON.parse(text); } catch { return null; } })(), type: res.headers.get('content-type') };
}

async function counts() {
  const p = t.app.deps.prisma;
  return [await p.task.count(), await p.taskEvent.count()];
}

describe('GraphQL over HTTP', () => {
  test('application/graphql-response+json is used when accepted; GET works for queries', async () => {
    const r = await gql(t.url, t.a.ownerToken, ViewerQuery, undefined, { accept: 'application/graphql-response+json' });
    assert.equal(r.status, 200);
    assert.match(r.contentType ?? '', /application\/graphql-response\+json/);
    const q = encodeURIComponent('{ viewer { user { name } } }');
    const g = await raw({ method: 'GET', query: `?query=${q}`, headers: { accept: 'application/json' } });
    assert.equal(g.status, 200);
    assert.equal(g.json.data.viewer.user.name, 'Owner Alpha');
  });

  test('mutations over GET are refused with 405 and change nothing', async () => {
    const before = await counts();
    const q = encodeURIComponent(`mutation { createTask(input: { workspaceId: "${toGlobalId('Workspace', t.a.workspaceId)}", title: "via get" }) { task { id } } }`);
    const r = await raw({ method: 'GET', query: `?query=${q}` });
    assert.equal(r.status, 405);
    assert.equal(r.json.errors[0].extensions.code, 'BAD_USER_INPUT');
    assert.deepEqual(await counts(), before);
  });

  test('malformed JSON is 400 BAD_USER_INPUT for both media types', async () => {
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const r = await raw({ body: '{"query": ', headers: { accept } });
      assert.equal(r.status, 400, accept);
      assert.equal(r.json.errors[0].extensions.code, 'BAD_USER_INPUT');
    }
  });

  test('an oversized body is 413 before parsing', async () => {
    const big = JSON.stringify({ query: '{ viewer { user { name } } }', variables: { pad: 'x'.repeat(60_000) } });
    const r = await raw({ body: big });
    assert.equal(r.status, 413);
    assert.equal(r.json.errors[0].extensions.code, 'BAD_USER_INPUT');
  });

  test('validation errors: 200 with application/json, 400 with application/graphql-response+json', async () => {
    const body = JSON.stringify({ query: '{ viewer { nope } }' });
    const a = await raw({ body, headers: { accept: 'application/json' } });
    assert.equal(a.status, 200);
    assert.equal(a.json.errors[0].extensions.code, 'BAD_USER_INPUT');
    const b = await raw({ body, headers: { accept: 'application/graphql-response+json' } });
    assert.equal(b.status, 400);
    assert.equal(b.json.errors[0].extensions.code, 'BAD_USER_INPUT');
    const syntax = await raw({ body: JSON.stringify({ query: '{ viewer { ' }) });
    assert.equal(syntax.json.errors[0].extensions.code, 'BAD_USER_INPUT');
  });
});

describe('typed errors', () => {
  test('no or bad token: 401 UNAUTHENTICATED', async () => {
    for (const headers of [{ authorization: '' }, { authorization: 'Bearer atl_forged' }, { authorization: 'Basic abc' }]) {
      const r = await raw({ body: JSON.stringify({ query: '{ viewer { scopes } }' }), headers });
      assert.equal(r.status, 401);
      assert.equal(r.json.errors[0].extensions.code, 'UNAUTHENTICATED');
    }
  });

  test('malformed ids, wrong id types and invalid fields are BAD_USER_INPUT and change nothing', async () => {
    const before = await counts();
    const cases = [
      await gql(t.url, t.a.ownerToken, TaskQuery, { id: 'not-an-id' }),
      await gql(t.url, t.a.ownerToken, TaskQuery, { id: toGlobalId('Workspace', t.a.workspaceId) }),
      await gql(t.url, t.a.ownerToken, TaskQuery, { id: toGlobalId('Task', "1' OR 1=1 --") }),
      await gql(t.url, t.a.ownerToken, CreateTask, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: '   ' } }),
      await gql(t.url, t.a.ownerToken, CreateTask, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: 'x'.repeat(201) } }),
      await gql(t.url, t.a.ownerToken, UpdateTask, { input: { taskId: taskGid } }),
      await gql(t.url, t.a.ownerToken, TaskEventsPage, { id: taskGid, first: 0 }),
      await gql(t.url, t.a.ownerToken, TaskEventsPage, { id: taskGid, first: 100_000 }),
      await gql(t.url, t.a.ownerToken, TaskEventsPage, { id: taskGid, after: -1 }),
    ];
    for (const [i, r] of cases.entries()) {
      assert.equal(r.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', `case ${i}: ${JSON.stringify(r.errors)}`);
      assert.doesNotMatch(JSON.stringify(r.errors), LEAKS, `case ${i} leaks internals`);
    }
    assert.deepEqual(await counts(), before);
  });

  test('a garbage workspace cursor is refused as BAD_USER_INPUT', async () => {
    const c = wsClient(t.url, t.a.ownerToken);
    const s = collect(c, WorkspaceEventsSub, { after: 'definitely-not-a-cursor' });
    await s.collector.untilDone();
    assert.match(JSON.stringify(s.collector.errors), /BAD_USER_INPUT/);
    await c.dispose();
  });

  test('queries over the depth or cost limit are refused before execution', async () => {
    const deep = '{ viewer { workspaces { tasks { edges { node { workspace { tasks { edges { node { workspace { name } } } } } } } } } } }';
    const d = await raw({ body: JSON.stringify({ query: deep }) });
    assert.equal(d.json.errors[0].extensions.code, 'BAD_USER_INPUT');
    assert.match(d.json.errors[0].message, /too deep/);
    const costly = `{ viewer { workspaces { tasks(first: 100) { edges { node { events(first: 500) { edges { node { seq } } } } } } } } }`;
    const c = await raw({ body: JSON.stringify({ query: costly }) });
    assert.match(JSON.stringify(c.json.errors), /too expensive/);
    assert.equal(c.json.data, undefined, 'nothing executed');
  });

  test('unexpected failures are INTERNAL with a generic message: no SQL, no stack', async () => {
    // Break the database under the running server: a column the code needs disappears.
    const p = t.app.deps.prisma;
    await p.$executeRawUnsafe('ALTER TABLE tasks RENAME COLUMN summary TO summary_gone');
    try {
      const r = await gql(t.url, t.a.ownerToken, TaskQuery, { id: taskGid });
      assert.equal(r.errors?.[0]?.extensions?.code, 'INTERNAL');
      assert.equal(r.errors?.[0]?.message, 'Unexpected error.');
      assert.doesNotMatch(JSON.stringify(r.errors), LEAKS);
    } finally {
      await p.$executeRawUnsafe('ALTER TABLE tasks RENAME COLUMN summary_gone TO summary');
    }
  });
});

describe('rate limiting', () => {
  test('over the per-token limit: 429 RATE_LIMITED; other tokens unaffected', async () => {
    const small = await startTestApp('ratelimit', { rateLimitPerMinute: 5 });
    try {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 7; i++) {
        last = await gql(small.url, small.a.ownerToken, ViewerQuery);
        statuses.push(last.status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
      assert.equal(last!.errors?.[0]?.extensions?.code, 'RATE_LIMITED');
      assert.equal((await gql(small.url, small.a.readToken, ViewerQuery)).status, 200);
    } finally {
      await small.close();
    }
  });
});
