// A subscriber that stops reading never holds up the others, and loses nothing: graphql-ws sends
// each event only after the previous one left for the socket, so a stalled client's stream stops
// pulling from its topic (no queue grows for it on the server), the topic's ring moves on for
// everyone else, and when the client reads again its stream, now behind the ring, catches up from
// the database in order.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { print } from 'graphql';
import WebSocket from 'ws';
import { encodeWorkspaceCursor } from '../server/channel/cursor.ts';
import { appendNow } from '../server/channel/unit-of-work.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { wsClient } from './helpers/clients.ts';
import { WorkspaceEventsSub } from './helpers/documents.ts';
import { range } from './helpers/produce.ts';
import { waitFor } from './helpers/wait.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp('slow-consumers');
});
after(async () => {
  await t.close();
});

type Received = { seq: number; type: string; taskId: string; cursor: string };

/** A bare graphql-transport-ws client on a socket this test can stop reading (pause) and resume. */
async function rawSubscriber(after: string): Promise<{ socket: WebSocket; got: Received[] }> {
  const socket = new WebSocket(t.url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
  const got: Received[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () => {
      socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${t.a.ownerToken}` } }));
    });
    socket.on('message', (data) => {
      const m = JSON.parse(String(data)) as { type: string; payload?: { data?: { workspaceEvents?: { seq: number; type: string; cursor: string; task: { id: string } } } } };
      if (m.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: print(WorkspaceEventsSub), variables: { after } } }));
        resolve();
      } else if (m.type === 'next' && m.payload?.data?.workspaceEvents) {
        const e = m.payload.data.workspaceEvents;
        got.push({ seq: e.seq, type: e.type, taskId: e.task.id, cursor: e.cursor });
      }
    });
  });
  return { socket, got };
}

test('a subscriber that stops reading holds up nobody; when it reads again it gets every event, in order, from the database', async () => {
  const { prisma, hub } = t.app.deps;
  const task = await prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'firehose' } });
  const after = encodeWorkspaceCursor(t.a.workspaceId, await hub.readHead(t.a.workspaceId));

  const slow = await rawSubscriber(after);
  const fast: Received[] = [];
  const client = wsClient(t.url, t.a.ownerToken);
  const stop = client.subscribe(
    { query: print(WorkspaceEventsSub), variables: { after } },
    {
      next: (m) => {
        const e = (m.data as { workspaceEvents?: { seq: number; type: string; cursor: string; task: { id: string } } } | null)?.workspaceEvents;
        if (e) fast.push({ seq: e.seq, type: e.type, taskId: e.task.id, cursor: e.cursor });
      },
      error: () => {},
      complete: () => {},
    },
  );
  try {
    // Both live: a primer reaches both; then the slow one stops reading.
    await appendNow(t.app.deps, task.id, [{ type: 'PRIMER', actor: { kind: 'SYSTEM' } }]);
    await waitFor(() => fast.length === 1 && slow.got.length === 1, 'both subscribers to receive the primer');
    slow.socket.pause();

    // More events than the topic's ring (2,048, trimmed past 2,560) and the stalled client's socket
    // buffers (a few MB on loopback) hold together, so its stream ends up behind the ring.
    const N = 6000;
    let next = 0;
    const filler = 'x'.repeat(6000);
    const replayReads = hub.stats.replayReads;

    await Promise.all(
      range(1, 4).map(async () => {
        while (next < N) {
          next++;
          await appendNow(t.app.deps, task.id, [{ type: 'BULK', actor: { kind: 'SYSTEM' }, payload: { filler } }]);
        }
      }),
    );
    // The workspace may carry other events too (the task's own bookkeeping): count this test's.
    const mine = (got: Received[]) => got.filter((e) => e.type === 'PRIMER' || e.type === 'BULK');
    await waitFor(() => mine(fast).length === N + 1, 'the reading subscriber to receive every event while the other is stalled', { timeoutMs: 120_000 });
    assert.ok(mine(slow.got).length < N / 2, `the stalled subscriber was really stalled (it had ${mine(slow.got).length} of ${N} when the other had all)`);

    slow.socket.resume();
    await waitFor(() => slow.got.length === fast.length, 'the stalled subscriber, reading again, to receive every event', { timeoutMs: 120_000 });
    assert.deepEqual(slow.got, fast, 'both received the same events in the same order');
    const seqs = mine(fast).map((e) => e.seq);
    assert.deepEqual(seqs, range(seqs[0]!, seqs[0]! + N), 'every event of the task once, in order');
    const positions = fast.map((e) => Number(Buffer.from(e.cursor, 'base64url').toString('utf8').split(':')[2]));
    assert.deepEqual(positions, range(positions[0]!, positions[0]! + positions.length - 1), 'every event of the workspace once, by position');
    assert.ok(hub.stats.replayReads > replayReads, 'the stalled stream fell behind the ring and caught up from the database');
  } finally {
    stop();
    await client.dispose();
    slow.socket.terminate();
  }
});
