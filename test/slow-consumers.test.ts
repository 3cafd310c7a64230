// A subscriber that stops reading never holds up the others, and loses nothing. Each stream pulls
// from its workspace's topic only as fast as its consumer takes events (graphql-ws sends the next
// event only after the previous one left for the socket), so a stalled consumer holds no queue on
// the server: the topic's ring moves on for everyone else, and when the consumer reads again its
// stream, now behind the ring, catches up from the database in order. Here the feed runs with a
// small ring (its own listener and feed on the app's database) so falling behind it is cheap.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { EventFeed } from '../server/channel/event-feed.ts';
import { FeedListener } from '../server/channel/listener.ts';
import type { EventRow } from '../server/channel/types.ts';
import { appendNow } from '../server/channel/unit-of-work.ts';
import { createLogger } from '../server/log.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { range } from './helpers/produce.ts';
import { waitFor } from './helpers/wait.ts';

let t: TestApp;
let listener: FeedListener;
let feed: EventFeed;
const RING = 32;
before(async () => {
  t = await startTestApp('slow-consumers');
  const log = createLogger('silent');
  listener = new FeedListener({ connectionString: t.dbUrl, log, pollMs: 60_000 });
  feed = new EventFeed({ prisma: t.app.deps.prisma, log, listener, ringSize: RING, pageSize: 50 });
  await listener.start();
});
after(async () => {
  feed.stop();
  await listener.stop();
  await t.close();
});

test('a stream whose consumer stops reading holds up nobody; reading again it gets every event, in order, from the database', async () => {
  const { prisma } = t.app.deps;
  const ws = t.a.workspaceId;
  const task = await prisma.task.create({ data: { workspaceId: ws, title: 'firehose' } });
  const from = await feed.readHead(ws);
  const abort = new AbortController();
  const fast: EventRow[] = [];
  const slowStream = feed.workspaceStream(ws, from, abort.signal);
  const fastStream = feed.workspaceStream(ws, from, abort.signal);
  const fastDone = (async () => {
    for await (const e of fastStream) fast.push(e);
  })();
  try {
    await appendNow(t.app.deps, task.id, [{ type: 'TASK_ARCHIVED', actor: { kind: 'SYSTEM' } }]);
    const first = await slowStream.next();
    assert.equal((first.value as EventRow).type, 'TASK_ARCHIVED');
    // The slow consumer now takes nothing while ten rings' worth of events go by.
    const N = RING * 10;
    let next = 0;
    await Promise.all(
      range(1, 4).map(async () => {
        while (next < N) {
          next++;
          await appendNow(t.app.deps, task.id, [{ type: 'NOTE', actor: { kind: 'SYSTEM' }, payload: { n: next } }]);
        }
      }),
    );
    await waitFor(() => fast.length === N + 1, 'the reading consumer to receive every event while the other takes none');
    const replayReads = feed.stats.replayReads;

    const slow: EventRow[] = [first.value as EventRow];
    const slowDone = (async () => {
      for await (const e of slowStream) slow.push(e);
    })();
    await waitFor(() => slow.length >= N + 1, 'the stalled consumer, reading again, to receive every event');
    abort.abort();
    await slowDone;
    assert.ok(feed.stats.replayReads > replayReads, 'the stalled stream was behind the ring and caught up from the database');
    for (const got of [fast, slow]) {
      assert.deepEqual(got.map((e) => e.position), range(from + 1, from + N + 1), 'every event once, by position');
      assert.deepEqual(got.map((e) => e.seq), range(1, N + 1), "the task's events in seq order");
    }
  } finally {
    abort.abort();
    await fastDone;
  }
});
