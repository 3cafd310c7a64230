// Isolation and authorisation: a credential of workspace A gets nothing of workspace B through any
// entry point (queries, node/nodes, mutations, subscriptions over WS and SSE, cursors), and scopes
// and roles are enforced.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateToken } from '../server/auth/tokens.ts';
import { sequenceEvents } from '../server/channel/sequencer.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { collect, gql, gqlOk, sseClient, toGlobalId, wsClient } from './helpers/clients.ts';
import {
  CreateTask,
  NodeQuery,
  NodesQuery,
  SignalTask,
  TaskEventsSub,
  TaskQuery,
  UpdateTask,
  ViewerQuery,
  WorkspaceEventsSub,
  WorkspaceTasks,
} from './helpers/documents.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { eventually, produce } from './helpers/produce.ts';

let t: TestApp;
let taskA: { gid: string; id: string };
let taskB: { gid: string; id: string };
let cursorB: string;

before(async () => {
  t = await startTestApp('isolation');
  const mk = async (token: string, ws: string, title: string) => {
    const d = await gqlOk(t.url, token, CreateTask, { input: { workspaceId: toGlobalId('Workspace', ws), title } });
    return { gid: d.createTask.task.id, id: fromGlobalId(d.createTask.task.id).id };
  };
  taskA = await mk(t.a.ownerToken, t.a.workspaceId, 'alpha task');
  taskB = await mk(t.b.ownerToken, t.b.workspaceId, 'beta secret');
  // An append is sequenced (given its workspace position) just after it commits; read it sequenced.
  await sequenceEvents(t.app.deps.prisma, [t.b.workspaceId]);
  const ev = await t.app.deps.prisma.taskEvent.findFirstOrThrow({ where: { taskId: taskB.id } });
  assert.ok(ev.position != null, 'the event is sequenced');
  cursorB = Buffer.from(`v1:${t.b.workspaceId}:${ev.position}`).toString('base64url');
});
after(async () => {
  await t.close();
});

async function eventCountB() {
  return t.app.deps.prisma.taskEvent.count({ where: { workspaceId: t.b.workspaceId } });
}

describe('a token of workspace A sees nothing of workspace B', () => {
  test('viewer lists only its own workspace', async () => {
    const d = await gqlOk(t.url, t.a.ownerToken, ViewerQuery);
    assert.deepEqual(d.viewer.workspaces.map((w) => w.id), [toGlobalId('Workspace', t.a.workspaceId)]);
    assert.equal(d.viewer.workspaces[0]!.viewerRole, 'OWNER');
  });

  test('workspace(id) and task(id) of B are NOT_FOUND, indistinguishable from ids that do not exist', async () => {
    const ws = await gql(t.url, t.a.ownerToken, WorkspaceTasks, { id: toGlobalId('Workspace', t.b.workspaceId) });
    assert.equal(ws.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    const task = await gql(t.url, t.a.ownerToken, TaskQuery, { id: taskB.gid });
    assert.equal(task.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    const missing = await gql(t.url, t.a.ownerToken, TaskQuery, { id: toGlobalId('Task', '00000000-0000-4000-8000-000000000000') });
    assert.equal(missing.errors?.[0]?.message, task.errors?.[0]?.message);
  });

  test('node(id) and nodes(ids) return null for B objects (task, workspace, user)', async () => {
    for (const id of [taskB.gid, toGlobalId('Workspace', t.b.workspaceId), toGlobalId('User', t.b.ownerId)]) {
      const r = await gql(t.url, t.a.ownerToken, NodeQuery, { id });
      assert.equal(r.errors, undefined);
      assert.equal(r.data?.node, null, `node(${fromGlobalId(id).type}) of B`);
    }
    const own = await gqlOk(t.url, t.a.ownerToken, NodeQuery, { id: taskA.gid });
    assert.equal(own.node?.__typename, 'Task');
    const many = await gqlOk(t.url, t.a.ownerToken, NodesQuery, { ids: [taskB.gid, taskA.gid] });
    assert.deepEqual(many.nodes.map((n) => n?.id ?? null), [null, taskA.gid]);
  });

  test('mutations on B are NOT_FOUND and change nothing', async () => {
    const before = await eventCountB();
    const sig = await gql(t.url, t.a.ownerToken, SignalTask, { input: { taskId: taskB.gid, signal: 'CANCEL' } });
    assert.equal(sig.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    const upd = await gql(t.url, t.a.ownerToken, UpdateTask, { input: { taskId: taskB.gid, title: 'pwned' } });
    assert.equal(upd.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    const create = await gql(t.url, t.a.ownerToken, CreateTask, {
      input: { workspaceId: toGlobalId('Workspace', t.b.workspaceId), title: 'intruder' },
    });
    assert.equal(create.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    assert.equal(await eventCountB(), before);
    const row = await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: taskB.id } });
    assert.equal(row.title, 'beta secret');
    assert.equal(row.status, 'QUEUED');
    assert.equal(await t.app.deps.prisma.task.count({ where: { workspaceId: t.b.workspaceId } }), 1);
  });

  test('taskEvents of a B task is refused over graphql-ws and over SSE', async () => {
    const c = wsClient(t.url, t.a.ownerToken);
    const s = collect(c, TaskEventsSub, { taskId: taskB.gid, after: 0 });
    await s.collector.untilDone();
    assert.equal(s.collector.items.length, 0);
    assert.equal((s.collector.errors[0] as { extensions?: { code?: string } }[])[0]?.extensions?.code, 'NOT_FOUND');
    await c.dispose();

    const sse = sseClient(t.url, t.a.ownerToken);
    const s2 = collect(sse, TaskEventsSub, { taskId: taskB.gid, after: 0 });
    await s2.collector.untilDone();
    assert.equal(s2.collector.items.length, 0);
    assert.match(JSON.stringify(s2.collector.errors), /NOT_FOUND/);
    sse.dispose();
  });

  test('workspaceEvents refuses B by id and by B cursor, and without arguments streams only A', async () => {
    const c = wsClient(t.url, t.a.ownerToken);
    const byId = collect(c, WorkspaceEventsSub, { workspaceId: toGlobalId('Workspace', t.b.workspaceId) });
    await byId.collector.untilDone();
    assert.match(JSON.stringify(byId.collector.errors), /NOT_FOUND/);
    const byCursor = collect(c, WorkspaceEventsSub, { after: cursorB });
    await byCursor.collector.untilDone();
    assert.match(JSON.stringify(byCursor.collector.errors), /NOT_FOUND/);

    const open = t.app.deps.hub.stats.openStreams;
    const mine = collect(c, WorkspaceEventsSub, {});
    // A cursor-less subscription starts at "now": wait until it is attached, then write to both workspaces.
    await eventually(() => t.app.deps.hub.stats.openStreams === open + 1, 'stream attached');
    await produce(t.app.deps, [taskB.id, taskA.id], 20);
    await mine.collector.until((xs) => xs.filter((x) => x.workspaceEvents.task.id === taskA.gid).length >= 10, 10_000, 'A events');
    assert.ok(mine.collector.items.every((x) => x.workspaceEvents.task.id === taskA.gid));
    mine.stop();
    await c.dispose();
  });

  test('a WebSocket connection without a valid token is closed (4401 UNAUTHENTICATED) before any operation', async () => {
    for (const token of [null, 'atl_not-a-real-token']) {
      const c = wsClient(t.url, token, { lazy: false });
      const closed = await new Promise<number>((resolve) => c.on('closed', (e) => resolve((e as { code: number }).code)));
      assert.equal(closed, 4401);
      await c.dispose();
    }
  });
});

describe('scopes and roles', () => {
  test('a read-only token can read but not write (FORBIDDEN), and nothing changes', async () => {
    const r = await gqlOk(t.url, t.a.readToken, TaskQuery, { id: taskA.gid });
    assert.equal(r.task.id, taskA.gid);
    const before = await t.app.deps.prisma.taskEvent.count();
    const w = await gql(t.url, t.a.readToken, SignalTask, { input: { taskId: taskA.gid, signal: 'PAUSE' } });
    assert.equal(w.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    assert.equal(await t.app.deps.prisma.taskEvent.count(), before);
  });

  test('a VIEWER member cannot write even with a write-scoped token', async () => {
    const g = generateToken();
    await t.app.deps.prisma.apiToken.create({
      data: { workspaceId: t.a.workspaceId, userId: t.a.viewerId, name: 'forged', tokenHash: g.hash, prefix: g.prefix, scopes: ['READ', 'WRITE'] },
    });
    const w = await gql(t.url, g.token, CreateTask, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: 'x' } });
    assert.equal(w.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    const r = await gqlOk(t.url, g.token, TaskQuery, { id: taskA.gid });
    assert.equal(r.task.id, taskA.gid, 'but can read');
  });

  test('revoked, expired and orphaned tokens are UNAUTHENTICATED (401) everywhere', async () => {
    const { prisma } = t.app.deps;
    const mk = async (data: { revokedAt?: Date; expiresAt?: Date }, userId = t.a.ownerId) => {
      const g = generateToken();
      await prisma.apiToken.create({
        data: { workspaceId: t.a.workspaceId, userId, name: 'x', tokenHash: g.hash, prefix: g.prefix, scopes: ['READ'], ...data },
      });
      return g.token;
    };
    const revoked = await mk({ revokedAt: new Date() });
    const expired = await mk({ expiresAt: new Date(Date.now() - 1000) });
    const leaver = await prisma.user.create({ data: { email: 'leaver@example.test', name: 'Leaver' } });
    await prisma.membership.create({ data: { workspaceId: t.a.workspaceId, userId: leaver.id, role: 'MEMBER' } });
    const orphan = await mk({}, leaver.id);
    assert.equal((await gql(t.url, orphan, ViewerQuery)).status, 200);
    await prisma.membership.delete({ where: { workspaceId_userId: { workspaceId: t.a.workspaceId, userId: leaver.id } } });
    for (const token of [revoked, expired, orphan]) {
      const r = await gql(t.url, token, ViewerQuery);
      assert.equal(r.status, 401);
      assert.equal(r.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
      const c = wsClient(t.url, token, { lazy: false });
      const code = await new Promise<number>((resolve) => c.on('closed', (e) => resolve((e as { code: number }).code)));
      assert.equal(code, 4401);
      await c.dispose();
    }
  });

  test("another member's main thread is invisible through node(id)", async () => {
    const thread = await t.app.deps.prisma.thread.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, userId: t.a.ownerId } });
    const r = await gqlOk(t.url, t.a.viewerToken, NodeQuery, { id: toGlobalId('Thread', thread.id) });
    assert.equal(r.node, null);
    const own = await gqlOk(t.url, t.a.ownerToken, NodeQuery, { id: toGlobalId('Thread', thread.id) });
    assert.equal(own.node?.__typename, 'Thread');
  });
});
