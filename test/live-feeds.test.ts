// The live-feed mechanism's guarantees: one LISTEN connection per process serves task events,
// workspace events and object changes; it comes back after its backend is terminated and nothing
// committed meanwhile is lost; object changes are notified after commit, coalesced.
//
// Writes that must cross PostgreSQL come from a "writer process": a Prisma pool and notifier of
// their own, so the app's feeds learn of them only through LISTEN (a commit in the app's own
// process wakes its feeds directly). The safety poll is set to a minute, so it rescues nothing here.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { LISTENER_APPLICATION_NAME, backoffDelay } from '../server/channel/listener.ts';
import { EventNotifier, OBJECTS_CHANNEL, type FeedChannel } from '../server/channel/notifier.ts';
import { transactWithEvents, type UowDeps } from '../server/channel/unit-of-work.ts';
import { createPrisma } from '../server/db/client.ts';
import { parseContent } from '../server/domain/object-content.ts';
import { createLogger } from '../server/log.ts';
import { createObjectTx } from '../server/store/objects/store.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { collect, gqlOk, toGlobalId, wsClient } from './helpers/clients.ts';
import { CreateTask, TaskEventsSub, WorkspaceEventsSub } from './helpers/documents.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { CreateObject, ObjectChanges, ObjectChangesWithObject, UpdateObject } from './helpers/object-documents.ts';
import { decodeCursor, range } from './helpers/produce.ts';
import { holdsFor, waitFor } from './helpers/wait.ts';

let t: TestApp;
let writer: UowDeps;
let sql: pg.Client;

before(async () => {
  t = await startTestApp('livefeeds', { eventPollMs: 60_000 });
  const prisma = createPrisma(t.dbUrl, { max: 10 });
  writer = { prisma, notifier: new EventNotifier(prisma, createLogger('silent')) };
  sql = new pg.Client({ connectionString: t.dbUrl });
  await sql.connect();
});

after(async () => {
  await writer.notifier.drain();
  await writer.prisma.$disconnect();
  await sql.end();
  await t.close();
});

const listenerBackends = async () =>
  (
    await sql.query<{ pid: number; query: string }>(
      `SELECT pid, query FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
      [LISTENER_APPLICATION_NAME],
    )
  ).rows;

/** Backends of this database whose last statement was a LISTEN, whatever their name. */
const listeningBackends = async () =>
  Number((await sql.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'`)).rows[0].n);

async function newTask(title: string): Promise<{ gid: string; id: string }> {
  const d = await gqlOk(t.url, t.a.ownerToken, CreateTask, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title } });
  return { gid: d.createTask.task.id, id: fromGlobalId(d.createTask.task.id).id };
}

/** Task events written by the writer process, one transaction each. */
async function writeEvents(taskId: string, n: number, label: string): Promise<void> {
  for (let i = 0; i < n; i++) {
    await transactWithEvents(writer, async (_tx, emit) => emit(taskId, { type: 'NOTE', actor: { kind: 'AGENT' }, payload: { label, i } }));
  }
}

/** A document created by the writer process in a transaction of its own; returns its id. */
async function writeObject(name: string): Promise<string> {
  const { value } = await transactWithEvents(writer, (tx, emit) =>
    createObjectTx(tx, emit, {
      workspaceId: t.a.workspaceId,
      kind: 'DOCUMENT',
      name,
      content: parseContent('DOCUMENT', { markdown: `# ${name}\n` }),
      actor: { kind: 'USER', userId: t.a.ownerId },
    }),
  );
  return value.object.id;
}

const objectHead = async () => Number((await t.app.deps.prisma.objectFeedHead.findUnique({ where: { workspaceId: t.a.workspaceId } }))?.position ?? 0);

/** Subscribes to all three streams of workspace A over one socket, each starting now. */
async function subscribeAll(task: { gid: string }) {
  const wgid = toGlobalId('Workspace', t.a.workspaceId);
  const client = wsClient(t.url, t.a.ownerToken);
  const open = t.app.deps.hub.stats.openStreams;
  const openObjects = t.app.deps.objectFeed.stats.openStreams;
  const taskSub = collect(client, TaskEventsSub, { taskId: task.gid, after: 0 });
  const wsSub = collect(client, WorkspaceEventsSub, { workspaceId: wgid });
  const objSub = collect(client, ObjectChanges, { workspaceId: wgid });
  await waitFor(() => t.app.deps.hub.stats.openStreams === open + 2 && t.app.deps.objectFeed.stats.openStreams === openObjects + 1, 'three streams attached');
  return {
    task: taskSub.collector,
    workspace: wsSub.collector,
    objects: objSub.collector,
    close: async () => {
      taskSub.stop();
      wsSub.stop();
      objSub.stop();
      await client.dispose();
    },
  };
}

describe('one LISTEN connection per process', () => {
  test('serves task events, workspace events and object changes written by another process', async () => {
    const task = await newTask('shared listener');
    const subs = await subscribeAll(task);
    try {
      const backends = await listenerBackends();
      assert.equal(backends.length, 1, 'one listener backend for the process');
      assert.match(backends[0]!.query, /LISTEN atelier_events; LISTEN atelier_objects/);
      assert.equal(backends[0]!.pid, t.app.deps.listener.backendPid);
      assert.equal(await listeningBackends(), 1, 'no other connection of the process listens');
      assert.equal(t.app.deps.listener.stats.connections, 1);

      const before = { ...t.app.deps.listener.stats.notifications };
      const objectsFrom = await objectHead();
      await writeEvents(task.id, 5, 'shared');
      const ids = [await writeObject('shared 1'), await writeObject('shared 2')];
      await subs.task.until((xs) => xs.length >= 6, 20_000, 'task events');
      await subs.workspace.until((xs) => xs.filter((x) => x.workspaceEvents.type === 'NOTE').length >= 5, 20_000, 'workspace events');
      await subs.objects.until((xs) => xs.length >= 2, 20_000, 'object changes');
      assert.deepEqual(subs.task.items.map((x) => x.taskEvents.seq), range(1, 6));
      assert.deepEqual(subs.objects.items.map((x) => x.objectChanges.position), range(objectsFrom + 1, objectsFrom + 2));
      assert.deepEqual(subs.objects.items.map((x) => fromGlobalId(x.objectChanges.objectId).id), ids);
      const after = t.app.deps.listener.stats.notifications;
      assert.ok(after.atelier_events! > before.atelier_events!, 'event wake-ups came through the shared connection');
      assert.ok(after.atelier_objects! > before.atelier_objects!, 'object wake-ups came through the shared connection');
      assert.equal((await listenerBackends()).length, 1);
    } finally {
      await subs.close();
    }
  });
});

describe('reconnect', () => {
  test('after its backend is terminated the listener comes back, and what was committed meanwhile is delivered, in order', async () => {
    const task = await newTask('reconnect');
    const subs = await subscribeAll(task);
    try {
      const listener = t.app.deps.listener;
      const pid = listener.backendPid!;
      const reconnects = listener.stats.reconnects;
      const wsFrom = Number((await t.app.deps.prisma.workspace.findUniqueOrThrow({ where: { id: t.a.workspaceId } })).eventPosition);
      const objectsFrom = await objectHead();
      await sql.query('SELECT pg_terminate_backend($1)', [pid]);
      // Written while no connection listens (the first reconnect waits at least 50 ms): these
      // notifications are lost for good.
      await waitFor(() => listener.backendPid !== pid, 'the listener to notice the lost connection');
      await writeEvents(task.id, 5, 'during');
      const during = [await writeObject('during 1'), await writeObject('during 2')];
      await waitFor(() => listener.stats.reconnects > reconnects, 'reconnect', { timeoutMs: 20_000 });
      assert.notEqual(listener.backendPid, pid);
      assert.ok(listener.stats.connections >= 2);
      // And after it, the usual way.
      await writeEvents(task.id, 5, 'after');
      const afterIds = [await writeObject('after 1')];

      await subs.task.until((xs) => xs.length >= 11, 20_000, 'task events');
      assert.deepEqual(subs.task.items.map((x) => x.taskEvents.seq), range(1, 11));
      const wsEnd = Number((await t.app.deps.prisma.workspace.findUniqueOrThrow({ where: { id: t.a.workspaceId } })).eventPosition);
      await subs.workspace.until((xs) => xs.length > 0 && decodeCursor(xs.at(-1)!.workspaceEvents.cursor).position === wsEnd, 20_000, `position ${wsEnd}`);
      assert.deepEqual(subs.workspace.items.map((x) => decodeCursor(x.workspaceEvents.cursor).position), range(wsFrom + 1, wsEnd));
      await subs.objects.until((xs) => xs.length >= 3, 20_000, 'object changes');
      assert.deepEqual(subs.objects.items.map((x) => x.objectChanges.position), range(objectsFrom + 1, objectsFrom + 3));
      assert.deepEqual(subs.objects.items.map((x) => fromGlobalId(x.objectChanges.objectId).id), [...during, ...afterIds]);
      assert.deepEqual((await listenerBackends()).map((b) => b.pid), [listener.backendPid], 'still one listener backend');
    } finally {
      await subs.close();
    }
  });

  test('reconnect delays double from the base, are capped, and are jittered within the upper half of each step', () => {
    const low = () => 0;
    const high = () => 1;
    assert.deepEqual([0, 1, 2, 3].map((a) => backoffDelay(a, 100, 5000, high)), [100, 200, 400, 800]);
    assert.deepEqual([0, 1, 2, 3].map((a) => backoffDelay(a, 100, 5000, low)), [50, 100, 200, 400]);
    assert.equal(backoffDelay(20, 100, 5000, high), 5000);
    assert.equal(backoffDelay(20, 100, 5000, low), 2500);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelay(3, 100, 5000);
      assert.ok(d >= 400 && d <= 800, `${d} within [400, 800]`);
    }
  });
});

describe('object changes are notified after commit, coalesced', () => {
  test('a change is handed to the notifier only once committed, and a rolled-back one never', async () => {
    const wakes: { channel: FeedChannel; key: string; position: number; visible: Promise<boolean> }[] = [];
    const off = t.app.deps.notifier.onLocal((channel, key, position) => {
      if (channel !== OBJECTS_CHANNEL || key !== t.a.workspaceId) return;
      // Read from another connection at the moment of the wake-up: the change must already be there.
      const visible = sql
        .query('SELECT 1 FROM object_changes WHERE workspace_id = $1 AND position = $2', [key, position])
        .then((r) => r.rowCount === 1);
      wakes.push({ channel, key, position, visible });
    });
    try {
      let positionInTx = 0;
      let wakesInTx = -1;
      await transactWithEvents(t.app.deps, async (tx, emit) => {
        const r = await createObjectTx(tx, emit, {
          workspaceId: t.a.workspaceId,
          kind: 'DOCUMENT',
          name: 'after commit',
          content: parseContent('DOCUMENT', { markdown: '# after commit\n' }),
          actor: { kind: 'USER', userId: t.a.ownerId },
        });
        positionInTx = Number((await tx.objectChange.findFirstOrThrow({ where: { objectId: r.object.id } })).position);
        // A window inside the transaction in which a premature wake-up would show: its absence is the check.
        await holdsFor(() => wakes.length === 0, 'no wake-up before commit', 50, 5);
        wakesInTx = wakes.length;
      });
      assert.equal(wakesInTx, 0, 'nothing was notified before commit');
      assert.equal(wakes.length, 1, 'one wake-up, after commit');
      assert.equal(wakes[0]!.position, positionInTx);
      assert.equal(await wakes[0]!.visible, true, 'the change was visible to others when it was notified');

      await assert.rejects(
        transactWithEvents(t.app.deps, async (tx, emit) => {
          await createObjectTx(tx, emit, {
            workspaceId: t.a.workspaceId,
            kind: 'DOCUMENT',
            name: 'rolled back',
            content: parseContent('DOCUMENT', { markdown: '# rolled back\n' }),
            actor: { kind: 'USER', userId: t.a.ownerId },
          });
          throw new Error('abandon');
        }),
        /abandon/,
      );
      assert.equal(wakes.length, 1, 'a rolled-back change wakes no one');
    } finally {
      off();
    }
  });

  test('a burst of N commits sends fewer than N notifications and delivers all N changes in order', async () => {
    const N = 40;
    const probe = new pg.Client({ connectionString: t.dbUrl });
    await probe.connect();
    let notifications = 0;
    probe.on('notification', (m) => {
      if (m.channel === OBJECTS_CHANNEL && m.payload?.includes(t.a.workspaceId)) notifications++;
    });
    await probe.query(`LISTEN ${OBJECTS_CHANNEL}`);
    const client = wsClient(t.url, t.a.readToken);
    const openObjects = t.app.deps.objectFeed.stats.openStreams;
    const sub = collect(client, ObjectChanges, { workspaceId: toGlobalId('Workspace', t.a.workspaceId) });
    try {
      await waitFor(() => t.app.deps.objectFeed.stats.openStreams === openObjects + 1, 'stream attached');
      const from = await objectHead();
      const ids = await Promise.all(range(1, N).map((i) => writeObject(`burst ${i}`)));
      await writer.notifier.drain();
      await sub.collector.until((xs) => xs.length >= N, 30_000, `${N} changes`);
      const got = sub.collector.items.map((x) => x.objectChanges);
      assert.deepEqual(got.map((c) => c.position), range(from + 1, from + N), 'every change once, in position order');
      assert.deepEqual(new Set(got.map((c) => fromGlobalId(c.objectId).id)), new Set(ids));
      const stored = await t.app.deps.prisma.objectChange.findMany({ where: { workspaceId: t.a.workspaceId, position: { gt: from } }, orderBy: { position: 'asc' } });
      assert.deepEqual(got.map((c) => fromGlobalId(c.objectId).id), stored.map((s) => s.objectId), 'in commit order');
      // Every notification is sent (drained); PostgreSQL hands a listening session what is pending
      // before answering its next query, so after this round trip the probe has them all.
      await probe.query('SELECT 1');
      assert.ok(notifications >= 1, 'the burst was notified');
      assert.ok(notifications < N, `${N} commits coalesced into ${notifications} notifications`);
    } finally {
      sub.stop();
      await client.dispose();
      await probe.end();
    }
  });
});

describe('every event of a subscription reads fresh data', () => {
  test("an object change's nested object is the object as of that change, not as the first change loaded it", async () => {
    const client = wsClient(t.url, t.a.ownerToken);
    const openObjects = t.app.deps.objectFeed.stats.openStreams;
    const { collector, stop } = collect(client, ObjectChangesWithObject, { workspaceId: toGlobalId('Workspace', t.a.workspaceId) });
    try {
      // Without a cursor the stream starts at the live head: write only once it is attached.
      await waitFor(() => t.app.deps.objectFeed.stats.openStreams === openObjects + 1, 'the stream attached');
      const created = await gqlOk(t.url, t.a.ownerToken, CreateObject, {
        input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), kind: 'DOCUMENT', name: 'fresh reads', content: { markdown: 'v1' } },
      });
      const objectId = created.createObject.object.id;
      await collector.until((xs) => xs.length >= 1, 20_000, 'the creation');
      for (const [base, text] of [[1, 'v2'], [2, 'v3']] as const) {
        await gqlOk(t.url, t.a.ownerToken, UpdateObject, { input: { objectId, baseVersion: base, content: { markdown: text } } });
      }
      await collector.until((xs) => xs.length >= 3, 20_000, 'both updates');
      assert.deepEqual(
        collector.items.map((x) => [x.objectChanges.versionNumber, x.objectChanges.object?.currentVersion]),
        [[1, 1], [2, 2], [3, 3]],
      );
    } finally {
      stop();
      await client.dispose();
    }
  });
});
