// Hostile input, focused cases: one per class of bad input, as reported (negative pages, NUL and
// lone surrogates, malformed cursors and ids, deep JSON, documents nested too deeply to parse, bad
// percent-encodings in file paths). The generated sweep over every argument is in
// hostile-input.test.ts; both share the set-up and machinery in ./hostile/.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp } from './helpers/app.ts';
import { toGlobalId, wsClient } from './helpers/clients.ts';
import { setUpHostile, tearDownHostile } from './hostile/fixture.ts';
import { b64, b64url, NOBODY } from './hostile/hostile-values.ts';
import { changedTables, fingerprint } from './hostile/judge.ts';
import { checklistVersion, otherWorkspaceTask, seeds, t } from './hostile/state.ts';
import { http, ws, type Outcome } from './hostile/transport.ts';

before(setUpHostile);
after(tearDownHostile);

// ---------------------------------------------------------------------------------------------
// Focused cases: each class of bad input, as reported

describe('focused cases', () => {
  const code = (o: Outcome) => o.errors[0]?.extensions?.code;
  const expectBad = (o: Outcome, message: RegExp, codes = ['BAD_USER_INPUT']) => {
    assert.ok(o.status === undefined || o.status < 500, `status ${o.status}`);
    assert.ok(codes.includes(code(o) ?? ''), `expected ${codes.join('/')}: ${JSON.stringify(o.errors).slice(0, 300)}`);
    assert.match(o.errors[0]!.message, message);
  };

  test('negative and oversized first/last on every kind of connection', async () => {
    const wsId = seeds.Workspace;
    for (const [field, arg] of [
      ['tasks', 'first: -1'],
      ['tasks', 'last: -1'],
      ['approvals', 'first: -5'],
      ['memories', 'last: -1'],
      ['objects', 'first: -1'],
      ['objects', 'first: 101'],
      ['tasks', 'first: 1000000'],
    ]) {
      expectBad(await http(`query($id: ID!) { workspace(id: $id) { ${field}(${arg}) { __typename } } }`, { id: wsId }), /(first|last) must be a whole number from 0 to \d+/);
    }
    expectBad(await http(`query($id: ID!) { workspace(id: $id) { mainThread { messages(last: -1) { __typename } } } }`, { id: wsId }), /last must be/);
    expectBad(await http(`query($id: ID!) { node(id: $id) { ... on WorkspaceObject { versions(first: -1) { __typename } } } }`, { id: seeds.WorkspaceObject }), /first must be/);
    // An offset list cannot count back from its end.
    expectBad(await http(`query($id: ID!) { workspace(id: $id) { objects(last: 5) { __typename } } }`, { id: wsId }), /last needs before or first/);
  });

  test('NUL and lone surrogates in any text are refused before anything runs, wherever they are', async () => {
    const before = await fingerprint();
    const cases: [string, Record<string, unknown>][] = [
      [`mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }`, { i: { workspaceId: seeds.Workspace, title: 'a\u0000b' } }],
      [`mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }`, { i: { workspaceId: seeds.Workspace, title: 'ok', goal: 'x\ud800' } }],
      [`mutation { createTask(input: { workspaceId: "${seeds.Workspace}", title: "a\\u0000b" }) { __typename } }`, {}],
      [`mutation($i: SendMessageInput!) { sendMessage(input: $i) { __typename } }`, { i: { workspaceId: seeds.Workspace, text: '\udfff', idempotencyKey: 'k1' } }],
      [`mutation($i: CreateObjectInput!) { createObject(input: $i) { __typename } }`, { i: { workspaceId: seeds.Workspace, kind: 'FLOW', name: 'f', content: { nodes: [{ id: 'a', kind: 'x', params: { 'k\u0000': 1 } }] } } }],
      [`mutation($i: EditChecklistInput!) { editChecklist(input: $i) { __typename } }`, { i: { taskId: seeds.Task, baseVersion: checklistVersion, items: [{ title: 'step \u0000' }] } }],
      [`query($id: ID!, $q: String) { workspace(id: $id) { memories(query: $q) { __typename } } }`, { id: seeds.Workspace, q: 'Quorvia\u0000' }],
    ];
    for (const [query, variables] of cases) {
      const o = await http(query, variables);
      expectBad(o, /NUL character|unpaired UTF-16 surrogate/);
      assert.equal(o.data ?? null, null, 'nothing executed');
    }
    const c = wsClient(t.url, t.a.ownerToken);
    const sub = await ws(c, `subscription($id: ID!, $after: String) { objectChanges(workspaceId: $id, after: $after) { __typename } }`, { id: seeds.Workspace, after: 'x\u0000' }, 'subscription');
    await c.dispose();
    expectBad(sub, /NUL character/);
    assert.deepEqual(changedTables(before, await fingerprint()), []);
  });

  test('malformed and out-of-range cursors, on every list and stream', async () => {
    const wsId = seeds.Workspace;
    const list = (field: string, arg: string) => http(`query($id: ID!, $c: String) { workspace(id: $id) { ${field}(${arg}: $c) { __typename } } }`, { id: wsId, c: cursorValue });
    let cursorValue = `2020-01-01T00:00:00Z|${'-'.repeat(36)}`;
    expectBad(await list('tasks', 'after'), /after is not a cursor/);
    expectBad(await list('approvals', 'before'), /before is not a cursor/);
    cursorValue = `-271821-04-19T00:00:00.000Z|${NOBODY}`;
    expectBad(await list('memories', 'after'), /after is not a cursor/);
    expectBad(await list('approvals', 'after'), /after is not a cursor/);
    cursorValue = 'garbage';
    expectBad(await list('objects', 'after'), /after is not a cursor/);
    cursorValue = b64('OffsetConnection:-1');
    expectBad(await list('objects', 'before'), /before is not a cursor/);
    expectBad(await http(`query($id: ID!) { workspace(id: $id) { mainThread { messages(after: "garbage|${NOBODY}") { __typename } } } }`, { id: wsId }), /after is not a cursor/);
    const c = wsClient(t.url, t.a.ownerToken);
    for (const after of [b64url(`v1:${'-'.repeat(36)}:1`), b64url(`v1:${NOBODY}:99999999999999999999`)]) {
      expectBad(await ws(c, `subscription($a: String) { workspaceEvents(after: $a) { __typename } }`, { a: after }, 'subscription'), /after is not a cursor/);
      expectBad(await ws(c, `subscription($id: ID!, $a: String) { objectChanges(workspaceId: $id, after: $a) { __typename } }`, { id: wsId, a: after }, 'subscription'), /after is not a cursor/);
    }
    await c.dispose();
  });

  test('node(id) and nodes(ids) with anything but a global id of a kind of object', async () => {
    const raw = Buffer.from(seeds.Task!, 'base64').toString().split(':')[1]!;
    expectBad(await http(`{ node(id: "x") { id } }`), /id is not a valid id/);
    expectBad(await http(`query($id: ID!) { node(id: $id) { id } }`, { id: raw }), /id is not a valid id/);
    expectBad(await http(`query($id: ID!) { node(id: $id) { id } }`, { id: toGlobalId('Nope', raw) }), /not the id of any kind of object/);
    expectBad(await http(`query($id: ID!) { node(id: $id) { id } }`, { id: toGlobalId('TaskEvent', raw) }), /not the id of any kind of object/);
    expectBad(await http(`query($id: ID!) { node(id: $id) { id } }`, { id: toGlobalId('Task', 'not-a-uuid') }), /id is not a valid id/);
    expectBad(await http(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [seeds.Task, 'x'] }), /is not a valid id/);
    expectBad(await http(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: new Array(101).fill(seeds.Task) }), /at most 100/);
    // Well-formed ids of objects the caller may not see are still null, not an error.
    const other = await http(`query($id: ID!) { node(id: $id) { id } }`, { id: otherWorkspaceTask });
    assert.deepEqual(other.errors, []);
    assert.deepEqual(other.data, { node: null });
  });

  test('deep JSON input is refused by the JSON scalar, and nothing is written', async () => {
    const before = await fingerprint();
    const deep = JSON.parse('['.repeat(3000) + ']'.repeat(3000)) as unknown;
    const create = `mutation($i: CreateObjectInput!) { createObject(input: $i) { __typename } }`;
    for (const content of [
      { nodes: [{ id: 'a', kind: 'x', params: { p: deep } }], edges: [] },
      { file: { path: 'a.png', mime: 'image/png', bytes: 1 }, provenance: { p: deep } },
    ]) {
      expectBad(await http(create, { i: { workspaceId: seeds.Workspace, kind: content.nodes ? 'FLOW' : 'IMAGE', name: 'deep', content } }), /at most 64 levels/);
    }
    const ops = `mutation($i: EditFlowInput!) { editFlow(input: $i) { __typename } }`;
    expectBad(await http(ops, { i: { objectId: seeds.Flow, ops: [{ op: 'add_node', node: { id: 'z', kind: 'x', params: { p: deep } } }] } }), /at most 64 levels/);
    assert.deepEqual(changedTables(before, await fingerprint()), []);
  });

  test('documents nested too deeply to parse are BAD_USER_INPUT, whatever stops them', async () => {
    // With the token limit in place it stops them; with it raised as far as it goes, the parser's
    // own stack overflow must still be the client's error, over HTTP and over a socket.
    const roomy = await startTestApp('hostile-deep', { rateLimitPerMinute: 1_000_000, maxQueryTokens: 10_000_000 });
    try {
      const selection = `{ viewer ${'{ user '.repeat(5000)}${'}'.repeat(5001)} }`;
      const list = `query($id: ID!) { workspace(id: $id) { tasks(statuses: ${'['.repeat(50_000)}${']'.repeat(50_000)}) { __typename } } }`;
      for (const app of [t, roomy]) {
        const id = toGlobalId('Workspace', app.a.workspaceId);
        for (const query of [selection, list]) {
          const o = await http(query, { id }, app.a.ownerToken, app.url);
          expectBad(o, /nested too deeply|too large|too deep/i);
          const c = wsClient(app.url, app.a.ownerToken);
          expectBad(await ws(c, query, { id }, 'query'), /nested too deeply|too large|too deep/i);
          await c.dispose();
        }
      }
    } finally {
      await roomy.close();
    }
  });

  test('/files/ with a malformed percent-encoding is 400', async () => {
    for (const path of ['/files/%E0%A4%A', '/files/%', '/files/%ZZ.png']) {
      const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${t.a.ownerToken}` } });
      assert.equal(res.status, 400, path);
      await res.text();
    }
  });
});
