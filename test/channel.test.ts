// The durable channel: ordered, gap-free, duplicate-free streams that resume from a cursor, over
// graphql-ws and SSE, while a producer keeps appending.
import { sequenceEvents } from '../server/channel/sequencer.ts';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { appendNow } from '../server/channel/unit-of-work.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { collect, gqlOk, sseClient, toGlobalId, wsClient } from './helpers/clients.ts';
import { CreateTask, TaskEventsPage, TaskEventsSub, WorkspaceEventsSub } from './helpers/documents.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { decodeCursor, eventually, produce, range } from './helpers/produce.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp('channel');
});
after(async () => {
  await t.close();
});

async function newTask(title: string): Promise<{ gid: string; id: string }> {
  const d = await gqlOk(t.url, t.a.ownerToken, CreateTask, {
    input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title },
  });
  return { gid: d.createTask.task.id, id: fromGlobalId(d.createTask.task.id).id };
}

async function storedSeqs(taskId: string): Promise<number[]> {
  const rows = await t.app.deps.prisma.taskEvent.findMany({ where: { taskId }, orderBy: { seq: 'asc' }, select: { seq: true } });
  return rows.map((r) => r.seq);
}

describe('taskEvents over graphql-ws', () => {
  test('resumes after an abrupt disconnect at event k with exactly the missing events, in order, then live', async () => {
    const task = await newTask('ws resume');
    const flag = { stop: false };
    const producing = produce(t.app.deps, [task.id], 400, { signal: flag, payload: (i) => ({ i }) });

    // First connection: read some events, then the network "drops" (socket terminated, no close frame).
    let socket: { terminate(): void } | undefined;
    const c1 = wsClient(t.url, t.a.ownerToken);
    c1.on('connected', (s) => {
      socket = s as { terminate(): void };
    });
    const s1 = collect(c1, TaskEventsSub, { taskId: task.gid, after: 0 });
    await s1.collector.until((xs) => xs.length >= 40, 20_000, '40 events');
    socket!.terminate();
    await s1.collector.untilDone();
    const firstSeqs = s1.collector.items.map((x) => x.taskEvents.seq);
    const k = firstSeqs.at(-1)!;
    assert.deepEqual(firstSeqs, range(1, k), 'first connection saw 1..k in order');

    // Reconnect from the last seen seq while the producer is still appending.
    const c2 = wsClient(t.url, t.a.ownerToken);
    const s2 = collect(c2, TaskEventsSub, { taskId: task.gid, after: k });
    const total = (await producing) + 1; // + TASK_CREATED
    await s2.collector.until((xs) => xs.at(-1)?.taskEvents.seq === total, 30_000, `seq ${total}`);
    const secondSeqs = s2.collector.items.map((x) => x.taskEvents.seq);
    assert.deepEqual(secondSeqs, range(k + 1, total), 'second connection saw exactly k+1..total');
    assert.deepEqual([...firstSeqs, ...secondSeqs], await storedSeqs(task.id));

    // And it stays live: a new event arrives on the same subscription.
    await produce(t.app.deps, [task.id], 1, { type: 'TASK_ARCHIVED' });
    await s2.collector.until((xs) => xs.at(-1)?.taskEvents.type === 'TASK_ARCHIVED', 10_000, 'live event');
    assert.equal(s2.collector.items.at(-1)!.taskEvents.seq, total + 1);
    s2.stop();
    await c2.dispose();
    await c1.dispose();
  });

  test('a subscriber that starts behind more than a page replays everything, then continues live', async () => {
    const task = await newTask('long replay');
    // > 2 database pages, written in bulk (100 events per statement) to keep the test quick.
    for (let i = 0; i < 13; i++) {
      await appendNow(t.app.deps, task.id, range(1, 100).map((j) => ({ type: 'NOTE', actor: { kind: 'AGENT' as const }, payload: { i, j } })));
    }
    const flag = { stop: false };
    const producing = produce(t.app.deps, [task.id], 300, { signal: flag });
    const c = wsClient(t.url, t.a.ownerToken);
    const s = collect(c, TaskEventsSub, { taskId: task.gid, after: 0 });
    const total = 1 + 1300 + (await producing);
    await s.collector.until((xs) => xs.length >= total, 60_000, `${total} events`);
    assert.deepEqual(
      s.collector.items.map((x) => x.taskEvents.seq),
      range(1, total),
    );
    s.stop();
    await c.dispose();
  });

  test('unsubscribing releases the stream at once, even while it waits for events', async () => {
    const task = await newTask('release');
    const before = t.app.deps.hub.stats.openStreams;
    const c = wsClient(t.url, t.a.ownerToken);
    const s = collect(c, TaskEventsSub, { taskId: task.gid, after: 0 });
    await s.collector.until((xs) => xs.length === 1, 10_000, 'TASK_CREATED');
    await eventually(() => t.app.deps.hub.stats.openStreams === before + 1, 'stream open');
    s.stop();
    await eventually(() => t.app.deps.hub.stats.openStreams === before, 'stream released');
    await c.dispose();
  });
});

describe('taskEvents over SSE (graphql-sse)', () => {
  test('resumes after a dropped stream with exactly the missing events, then live', async () => {
    const task = await newTask('sse resume');
    const flag = { stop: false };
    const producing = produce(t.app.deps, [task.id], 300, { signal: flag });
    const open = t.app.deps.hub.stats.openStreams;
    const c1 = sseClient(t.url, t.a.ownerToken);
    const s1 = collect(c1, TaskEventsSub, { taskId: task.gid, after: 0 });
    await s1.collector.until((xs) => xs.length >= 30, 20_000, '30 events');
    s1.stop(); // aborts the HTTP stream mid-flight
    // The server releases the stream when the client goes away, not when a later write to it fails
    // (an idle SSE stream is written to by Yoga's keep-alive ping only every 12 s): the bound is
    // generous for a loaded machine and still below that.
    await eventually(() => t.app.deps.hub.stats.openStreams === open, 'SSE stream released', 9_000);
    const firstSeqs = s1.collector.items.map((x) => x.taskEvents.seq);
    const k = firstSeqs.at(-1)!;
    assert.deepEqual(firstSeqs, range(1, k));

    const c2 = sseClient(t.url, t.a.ownerToken);
    const s2 = collect(c2, TaskEventsSub, { taskId: task.gid, after: k });
    const total = (await producing) + 1;
    await s2.collector.until((xs) => xs.at(-1)?.taskEvents.seq === total, 30_000, `seq ${total}`);
    assert.deepEqual(
      s2.collector.items.map((x) => x.taskEvents.seq),
      range(k + 1, total),
    );
    await produce(t.app.deps, [task.id], 1, { type: 'TASK_ARCHIVED' });
    await s2.collector.until((xs) => xs.at(-1)?.taskEvents.type === 'TASK_ARCHIVED', 10_000, 'live event');
    s2.stop();
    c1.dispose();
    c2.dispose();
  });
});

describe('workspaceEvents', () => {
  test('streams every event of the workspace across tasks and resumes from the opaque cursor', async () => {
    const tasks = [await newTask('w1'), await newTask('w2'), await newTask('w3')];
    // Start from "now": take the cursor of the latest event so far.
    const head = Number((await t.app.deps.prisma.workspace.findUniqueOrThrow({ where: { id: t.a.workspaceId } })).eventPosition);
    const flag = { stop: false };
    const producing = produce(t.app.deps, tasks.map((x) => x.id), 300, { signal: flag });
    const wgid = toGlobalId('Workspace', t.a.workspaceId);

    const c1 = wsClient(t.url, t.a.ownerToken);
    const s1 = collect(c1, WorkspaceEventsSub, { workspaceId: wgid });
    await s1.collector.until((xs) => xs.length >= 50, 20_000, '50 events');
    s1.stop();
    const firstPositions = s1.collector.items.map((x) => decodeCursor(x.workspaceEvents.cursor).position);
    const k = firstPositions.at(-1)!;
    assert.ok(firstPositions[0]! > head, 'a cursor-less subscription starts with new events');
    assert.deepEqual(firstPositions, range(firstPositions[0]!, k), 'contiguous positions');

    const c2 = wsClient(t.url, t.a.ownerToken);
    // The cursor alone identifies the workspace.
    const s2 = collect(c2, WorkspaceEventsSub, { after: s1.collector.items.at(-1)!.workspaceEvents.cursor });
    await producing;
    // The head once every committed event has its position (the committing process sequences
    // right after its commit, so the workspace row alone may still lag the last few).
    const end = (await sequenceEvents(t.app.deps.prisma, [t.a.workspaceId])).get(t.a.workspaceId)!;
    await s2.collector.until(
      (xs) => xs.length > 0 && decodeCursor(xs.at(-1)!.workspaceEvents.cursor).position === end,
      30_000,
      `position ${end}`,
    );
    const second = s2.collector.items.map((x) => decodeCursor(x.workspaceEvents.cursor).position);
    assert.deepEqual(second, range(k + 1, end));

    // Per-task order inside the workspace stream: each task's seqs strictly increase by one.
    const all = [...s1.collector.items, ...s2.collector.items];
    for (const task of tasks) {
      const seqs = all.filter((x) => x.workspaceEvents.task.id === task.gid).map((x) => x.workspaceEvents.seq);
      assert.deepEqual(seqs, range(seqs[0]!, seqs.at(-1)!), `task ${task.id} in order`);
    }
    s2.stop();
    await c1.dispose();
    await c2.dispose();
  });
});

describe('polling fallback', () => {
  test('task.events pages through the log by seq', async () => {
    const task = await newTask('poll');
    await produce(t.app.deps, [task.id], 24);
    const seen: number[] = [];
    let cursor = 0;
    for (let guard = 0; guard < 10; guard++) {
      const d = await gqlOk(t.url, t.a.ownerToken, TaskEventsPage, { id: task.gid, after: cursor, first: 10 });
      const ev = d.task.events;
      seen.push(...ev.edges.map((e) => e.node.seq));
      if (!ev.pageInfo.hasNextPage) break;
      cursor = Number(ev.pageInfo.endCursor);
    }
    assert.deepEqual(seen, range(1, 25));
  });
});
