// The event log: partitioned by workspace, with a retention sweep an operator turns on. Retention
// removes only the history a snapshot already folds, of tasks that ended before the horizon; every
// other event stays, a resuming reader still gets every kept event once and in order, and a task
// whose history went still resumes from its snapshot.
import assert from 'node:assert/strict';
import { waitFor } from './helpers/wait.ts';
import { after, before, describe, test } from 'node:test';
import { encodeWorkspaceCursor } from '../server/channel/cursor.ts';
import { sequenceEvents } from '../server/channel/sequencer.ts';
import { appendNow } from '../server/channel/unit-of-work.ts';
import { loadConfig } from '../server/config.ts';
import { eventsAfter } from '../server/store/journal/events.ts';
import { pruneEndedHistory } from '../server/store/retention.ts';
import { startTestApp, testConfig, type TestApp } from './helpers/app.ts';
import { collect, wsClient } from './helpers/clients.ts';
import { WorkspaceEventsSub } from './helpers/documents.ts';
import { eventually } from './helpers/produce.ts';

const DAY = 86_400_000;
let t: TestApp;

before(async () => {
  const base = testConfig();
  // The worker sweeps every 100 ms with a 30-day horizon.
  t = await startTestApp('retention', { runtime: { ...base.runtime, eventRetention: { days: 30, sweepMs: 100 } } }, {}, { worker: { concurrency: 1 } });
});
after(async () => {
  await t.close();
});

type Made = { id: string; workspaceId: string };

/** A task with `events` events; a snapshot folding the first `snapshotSeq` (none when 0); then its status and last activity. */
async function makeTask(workspaceId: string, opts: { events: number; snapshotSeq: number; status: 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'RUNNING' | 'QUEUED'; endedDaysAgo: number }): Promise<Made> {
  const prisma = t.app.deps.prisma;
  const task = await prisma.task.create({ data: { workspaceId, title: `retention ${opts.status} ${opts.endedDaysAgo}d` } });
  for (let i = 1; i <= opts.events; i++) await appendNow(t.app.deps, task.id, [{ type: 'NOTE', actor: { kind: 'SYSTEM' }, payload: { i } }]);
  if (opts.snapshotSeq) await prisma.taskSnapshot.create({ data: { taskId: task.id, seq: opts.snapshotSeq, state: { folded: opts.snapshotSeq } } });
  await prisma.task.update({ where: { id: task.id }, data: { status: opts.status, lastActivityAt: new Date(Date.now() - opts.endedDaysAgo * DAY) } });
  return { id: task.id, workspaceId };
}

const seqsOf = async (taskId: string) =>
  (await t.app.deps.prisma.taskEvent.findMany({ where: { taskId }, orderBy: { seq: 'asc' }, select: { seq: true } })).map((r) => r.seq);

describe('the event log', () => {
  test('is hash-partitioned by workspace: each workspace\'s events live in one partition', async () => {
    await appendNow(t.app.deps, (await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'p' } })).id, [{ type: 'NOTE', actor: { kind: 'SYSTEM' }, payload: {} }]);
    await appendNow(t.app.deps, (await t.app.deps.prisma.task.create({ data: { workspaceId: t.b.workspaceId, title: 'p' } })).id, [{ type: 'NOTE', actor: { kind: 'SYSTEM' }, payload: {} }]);
    const kind = await t.app.deps.prisma.$queryRawUnsafe<{ relkind: string; parts: number }[]>(
      `SELECT c.relkind::text, (SELECT count(*)::int FROM pg_inherits i WHERE i.inhparent = c.oid) AS parts FROM pg_class c WHERE c.oid = 'task_events'::regclass`,
    );
    assert.deepEqual(kind[0], { relkind: 'p', parts: 16 });
    const spread = await t.app.deps.prisma.$queryRawUnsafe<{ workspace_id: string; partitions: number }[]>(
      `SELECT workspace_id::text, count(DISTINCT tableoid)::int AS partitions FROM task_events GROUP BY workspace_id`,
    );
    assert.ok(spread.length >= 2);
    for (const r of spread) assert.equal(r.partitions, 1, `workspace ${r.workspace_id} in one partition`);
  });
});

describe('retention of ended tasks\' history', () => {
  test('removes only folded events of tasks ended before the horizon, in every workspace; the rest stays and streams in order', async () => {
    const ws = t.a.workspaceId;
    const oldEnded = await makeTask(ws, { events: 6, snapshotSeq: 4, status: 'COMPLETED', endedDaysAgo: 40 });
    const oldFailedInB = await makeTask(t.b.workspaceId, { events: 3, snapshotSeq: 3, status: 'FAILED', endedDaysAgo: 31 });
    const oldNoSnapshot = await makeTask(ws, { events: 3, snapshotSeq: 0, status: 'CANCELLED', endedDaysAgo: 90 });
    const recentEnded = await makeTask(ws, { events: 3, snapshotSeq: 3, status: 'COMPLETED', endedDaysAgo: 29 });
    const oldButLive = await makeTask(ws, { events: 3, snapshotSeq: 2, status: 'RUNNING', endedDaysAgo: 60 });
    const oldQueued = await makeTask(ws, { events: 2, snapshotSeq: 2, status: 'QUEUED', endedDaysAgo: 60 });

    // The worker's sweep (every 100 ms) removes them; nothing else is asked of it.
    await eventually(async () => (await seqsOf(oldEnded.id)).join() === '5,6' && (await seqsOf(oldFailedInB.id)).length === 0, 'the worker swept the old history');
    assert.deepEqual(await seqsOf(oldNoSnapshot.id), [1, 2, 3], 'no snapshot: nothing is folded, nothing goes');
    assert.deepEqual(await seqsOf(recentEnded.id), [1, 2, 3], 'ended within the horizon');
    assert.deepEqual(await seqsOf(oldButLive.id), [1, 2, 3], 'a live task keeps its whole history');
    assert.deepEqual(await seqsOf(oldQueued.id), [1, 2], 'a queued task keeps its whole history');

    // Idempotent: a second pass finds nothing more.
    assert.deepEqual(await pruneEndedHistory(t.app.deps.prisma, { before: new Date(Date.now() - 30 * DAY) }), { tasks: 0, events: 0, batches: 1 });

    // The pruned task still resumes: its snapshot and the events after it are all there.
    const snap = await t.app.deps.prisma.taskSnapshot.findFirstOrThrow({ where: { taskId: oldEnded.id }, orderBy: { seq: 'desc' } });
    assert.deepEqual((await eventsAfter(t.app.deps.prisma, oldEnded.id, snap.seq)).map((e) => e.seq), [5, 6]);

    // A reader resuming from the start of the workspace gets every kept event once, in position order.
    const head = (await sequenceEvents(t.app.deps.prisma, [ws])).get(ws)!;
    const kept = await t.app.deps.prisma.taskEvent.count({ where: { workspaceId: ws } });
    const c = wsClient(t.url, t.a.ownerToken);
    const s = collect(c, WorkspaceEventsSub, { after: encodeWorkspaceCursor(ws, 0) });
    await s.collector.until((xs) => xs.length >= kept, 10_000, 'every kept event');
    s.stop();
    await c.dispose();
    const positions = s.collector.items.map((x) => Number(Buffer.from(x.workspaceEvents.cursor, 'base64url').toString().split(':')[2]));
    assert.equal(positions.length, kept);
    for (let i = 1; i < positions.length; i++) assert.ok(positions[i]! > positions[i - 1]!, 'strictly increasing positions');
    assert.ok(positions.at(-1)! <= head);
  });

  test('batches: a sweep over more ended tasks than one batch takes removes all of them, batch by batch', async () => {
    const made: Made[] = [];
    for (let i = 0; i < 5; i++) made.push(await makeTask(t.a.workspaceId, { events: 2, snapshotSeq: 2, status: 'COMPLETED', endedDaysAgo: 400 }));
    // A horizon further back than the worker's (30 days) but after these tasks ended, swept directly.
    const report = await pruneEndedHistory(t.app.deps.prisma, { before: new Date(Date.now() - 365 * DAY), batchTasks: 2 });
    // The worker's own sweep may hold some of them in a batch it has not committed yet (this sweep
    // skips what another has locked); between the two, all are gone once that batch commits.
    await waitFor(async () => (await Promise.all(made.map((m) => seqsOf(m.id)))).every((x) => x.length === 0), 'every old ended task pruned');
    assert.ok(report.events <= 10 && report.batches >= 1);
  });

  test('an operator turns it on with ATELIER_EVENT_RETENTION_DAYS; unset keeps every event', () => {
    assert.equal(loadConfig({}).runtime.eventRetention, undefined);
    assert.deepEqual(loadConfig({ ATELIER_EVENT_RETENTION_DAYS: '90' }).runtime.eventRetention, { days: 90, sweepMs: 600_000 });
    assert.throws(() => loadConfig({ ATELIER_EVENT_RETENTION_DAYS: '-1' }), /ATELIER_EVENT_RETENTION_DAYS/);
  });
});
