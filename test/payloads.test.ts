// Event payloads: inline when small, stored once by content hash when large, and private events
// never reach clients (redacted stubs keep their seq so streams stay gap-free).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { appendNow, transactWithEvents } from '../server/channel/unit-of-work.ts';
import { INLINE_PAYLOAD_LIMIT } from '../server/channel/payload.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { collect, gqlOk, sseClient, toGlobalId, wsClient } from './helpers/clients.ts';
import { TaskEventsPage, TaskEventsSub } from './helpers/documents.ts';
import { range } from './helpers/produce.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp('payloads');
});
after(async () => {
  await t.close();
});

test('large payloads are stored once by hash and referenced; clients still get the content', async () => {
  const { prisma } = t.app.deps;
  const task = await prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'big' } });
  const big = { text: 'ä'.repeat(INLINE_PAYLOAD_LIMIT), n: 1 };
  const sameContentOtherKeyOrder = { n: 1, text: big.text };
  await appendNow(t.app.deps, task.id, [{ type: 'TOOL_CALL_DONE', actor: { kind: 'AGENT' }, payload: big }]);
  await transactWithEvents(t.app.deps, async (_tx, emit) =>
    emit(task.id, { type: 'TOOL_CALL_DONE', actor: { kind: 'AGENT' }, payload: sameContentOtherKeyOrder }),
  );
  await appendNow(t.app.deps, task.id, [{ type: 'NOTE', actor: { kind: 'AGENT' }, payload: { ok: true } }]);
  const rows = await prisma.taskEvent.findMany({ where: { taskId: task.id }, orderBy: { seq: 'asc' } });
  assert.equal(rows[0]!.payload, null);
  assert.equal(rows[0]!.payloadHash, rows[1]!.payloadHash, 'same content, same hash (canonical JSON)');
  assert.ok(rows[0]!.payloadSize > INLINE_PAYLOAD_LIMIT);
  assert.deepEqual(rows[2]!.payload, { ok: true });
  assert.equal(await prisma.eventPayload.count({ where: { hash: rows[0]!.payloadHash! } }), 1, 'stored once');

  const page = await gqlOk(t.url, t.a.ownerToken, TaskEventsPage, { id: toGlobalId('Task', task.id) });
  assert.deepEqual(page.task.events.edges[0]!.node.payload, big);
  const c = wsClient(t.url, t.a.ownerToken);
  const s = collect(c, TaskEventsSub, { taskId: toGlobalId('Task', task.id), after: 0 });
  await s.collector.until((xs) => xs.length === 3, 10_000, '3 events');
  assert.deepEqual(s.collector.items[1]!.taskEvents.payload, big);
  await c.dispose();
});

test('private events arrive redacted (no payload) in queries, WS and SSE, and keep the sequence gap-free', async () => {
  const { prisma } = t.app.deps;
  const task = await prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'secret' } });
  const secret = { prompt: 'SYSTEM PROMPT: internal scoring rubric', path: '/srv/hooks/private.sh' };
  await appendNow(t.app.deps, task.id, [
    { type: 'NOTE', actor: { kind: 'AGENT' }, payload: { visible: 1 } },
    { type: 'MODEL_CALL', actor: { kind: 'AGENT' }, payload: secret, redaction: 'PRIVATE' },
    { type: 'NOTE', actor: { kind: 'AGENT' }, payload: { visible: 2 } },
  ]);
  const page = await gqlOk(t.url, t.a.ownerToken, TaskEventsPage, { id: toGlobalId('Task', task.id) });
  const nodes = page.task.events.edges.map((e) => e.node);
  assert.deepEqual(nodes.map((n) => n.seq), range(1, 3));
  assert.deepEqual(nodes.map((n) => n.redacted), [false, true, false]);
  assert.equal(nodes[1]!.payload, null);
  for (const client of [wsClient(t.url, t.a.ownerToken), sseClient(t.url, t.a.ownerToken)]) {
    const s = collect(client, TaskEventsSub, { taskId: toGlobalId('Task', task.id), after: 0 });
    await s.collector.until((xs) => xs.length === 3, 10_000, '3 events');
    assert.deepEqual(s.collector.items.map((x) => x.taskEvents.seq), range(1, 3));
    assert.doesNotMatch(JSON.stringify(s.collector.items), /SYSTEM PROMPT|private\.sh/);
    s.stop();
    await client.dispose();
  }
  // The server keeps the content for itself.
  const stored = await prisma.taskEvent.findFirstOrThrow({ where: { taskId: task.id, seq: 2 } });
  assert.deepEqual(stored.payload, secret);
});
