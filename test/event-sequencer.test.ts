// Workspace positions are handed out after commit by the sequencer (server/channel/sequencer.ts),
// not by the appending transaction. What must still hold, whoever sequences and whenever:
//  - positions of a workspace are gap-free and unique, and each task's events are in seq order;
//  - a reader that resumes from its cursor while writers and several sequencers run never skips
//    or repeats an event;
//  - events committed by a process that died before sequencing reach every reader;
//  - the log stays append-only: the one update there is sets a position, once.
import type { EventType } from '../server/domain/event-catalog.ts';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { print } from 'graphql';
import pg from 'pg';
import { appendEvents } from '../server/channel/append.ts';
import { encodeWorkspaceCursor } from '../server/channel/cursor.ts';
import { EventNotifier } from '../server/channel/notifier.ts';
import { sequenceEvents } from '../server/channel/sequencer.ts';
import { appendNow, transactWithEvents } from '../server/channel/unit-of-work.ts';
import { createPrisma, type PrismaClient } from '../server/db/client.ts';
import { newKeyMaterial, sealedKeyIds } from '../server/domain/sealing.ts';
import { createLogger } from '../server/log.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gqlOk, toGlobalId, wsClient } from './helpers/clients.ts';
import { TaskEventsPage, WorkspaceEventsSub } from './helpers/documents.ts';
import { range } from './helpers/produce.ts';
import { waitFor } from './helpers/wait.ts';

let t: TestApp;
const others: PrismaClient[] = [];
before(async () => {
  t = await startTestApp('event-sequencer');
});
after(async () => {
  await Promise.all(others.map((p) => p.$disconnect()));
  await t.close();
});

/** A second "process": its own pool and its own notifier, so it sequences what it commits itself. */
function otherProcess() {
  const prisma = createPrisma(t.dbUrl, { max: 4 });
  others.push(prisma);
  return { prisma, notifier: new EventNotifier(prisma, createLogger('silent')) };
}

type Seen = { id: bigint; taskId: string; seq: number; position: number };

test('three processes append and sequence one workspace at once: a resuming reader sees every event once, each task in seq order', async () => {
  const { prisma } = t.app.deps;
  const ws = (await prisma.workspace.create({ data: { name: 'Seq', slug: 'seq-race' } })).id;
  const tasks = await Promise.all(range(1, 6).map((i) => prisma.task.create({ data: { workspaceId: ws, title: `t${i}` } })));
  const processes = [{ prisma, notifier: t.app.deps.notifier }, otherProcess(), otherProcess()];

  // The reader pages by cursor exactly as a resuming client does: head first (which sequences),
  // then everything after its cursor up to that head.
  const reader = otherProcess().prisma;
  const seen: Seen[] = [];
  let cursor = 0;
  let writing = true;
  const readOnce = async () => {
    const head = (await sequenceEvents(reader, [ws])).get(ws) ?? 0;
    const rows = await reader.taskEvent.findMany({
      where: { workspaceId: ws, position: { gt: BigInt(cursor), lte: BigInt(head) } },
      orderBy: { position: 'asc' },
      select: { id: true, taskId: true, seq: true, position: true },
    });
    for (const r of rows) {
      assert.equal(Number(r.position), cursor + 1, 'the reader never skips a position');
      cursor = Number(r.position);
      seen.push({ id: r.id, taskId: r.taskId, seq: r.seq, position: cursor });
    }
  };
  const readerLoop = (async () => {
    while (writing) await readOnce();
  })();

  const PER_WRITER = 30;
  const writers = range(0, 11).map(async (w) => {
    const p = processes[w % processes.length]!;
    for (let i = 0; i < PER_WRITER; i++) {
      const a = tasks[(w + i) % tasks.length]!.id;
      const b = tasks[(w + i + 1) % tasks.length]!.id;
      if (i % 4 === 3) {
        // Two tasks in one transaction, emitted in the "wrong" order.
        await transactWithEvents(p, async (_tx, emit) => {
          emit(b, { type: 'NOTE', actor: { kind: 'AGENT' }, payload: { w, i } });
          emit(a, { type: 'NOTE', actor: { kind: 'AGENT' }, payload: { w, i } });
        });
      } else {
        await appendNow(p, a, [{ type: 'NOTE', actor: { kind: 'AGENT' }, payload: { w, i } }]);
      }
    }
  });
  await Promise.all(writers);
  await Promise.all(processes.map((p) => p.notifier.drain()));
  writing = false;
  await readerLoop;
  await readOnce();

  const total = await prisma.taskEvent.count({ where: { workspaceId: ws } });
  assert.equal(await prisma.taskEvent.count({ where: { workspaceId: ws, position: null } }), 0, 'the writers sequenced everything they committed');
  assert.equal(seen.length, total, 'the reader saw every event');
  assert.equal(new Set(seen.map((s) => s.id)).size, total, 'and none twice');
  assert.deepEqual(seen.map((s) => s.position), range(1, total), 'positions are gap-free');
  const head = await prisma.workspace.findUniqueOrThrow({ where: { id: ws } });
  assert.equal(Number(head.eventPosition), total);
  for (const task of tasks) {
    const seqs = seen.filter((s) => s.taskId === task.id).map((s) => s.seq);
    assert.deepEqual(seqs, range(1, seqs.length), `task ${task.title}: in seq order in the workspace feed`);
  }
});

test('events committed by a process that died before sequencing them reach a new subscriber, the task page and the live feed', async () => {
  const { prisma } = t.app.deps;
  const task = await prisma.task.create({ data: { workspaceId: t.b.workspaceId, title: 'orphaned' } });
  // The append commits; its process never gets to sequence it (no notifier call: it "died").
  const crashed = otherProcess().prisma;
  await appendEvents(crashed, task.id, [{ type: 'TASK_ARCHIVED', actor: { kind: 'SYSTEM' }, payload: { n: 1 } }]);
  assert.equal((await prisma.taskEvent.findFirstOrThrow({ where: { taskId: task.id } })).position, null, 'not sequenced yet');

  // A page of the task's events carries a cursor, made from the position: reading it sequences.
  const page = await gqlOk(t.url, t.b.ownerToken, TaskEventsPage, { id: toGlobalId('Task', task.id) });
  assert.deepEqual(page.task?.events.edges.map((e) => e.node.type), ['TASK_ARCHIVED']);
  assert.notEqual((await prisma.taskEvent.findFirstOrThrow({ where: { taskId: task.id } })).position, null);

  // A live subscriber resuming from just before it gets it; then one more orphan, which only the
  // listener's safety poll (it sequences before it reads heads) can bring to a subscriber already open.
  const position = Number((await prisma.taskEvent.findFirstOrThrow({ where: { taskId: task.id } })).position);
  const client = wsClient(t.url, t.b.ownerToken);
  const got: string[] = [];
  const errors: unknown[] = [];
  const stop = client.subscribe(
    { query: print(WorkspaceEventsSub), variables: { after: encodeWorkspaceCursor(t.b.workspaceId, position - 1) } },
    {
      next: (m) => {
        const e = (m.data as { workspaceEvents?: { type: string } } | null)?.workspaceEvents;
        if (e) got.push(e.type);
        if (m.errors) errors.push(...m.errors);
      },
      error: (e) => errors.push(e),
      complete: () => {},
    },
  );
  try {
    await waitFor(() => errors.length > 0 || got.includes('TASK_ARCHIVED'), 'the resumed subscriber to receive the first orphan');
    assert.deepEqual(errors, []);
    await appendEvents(crashed, task.id, [{ type: 'TASK_UNARCHIVED', actor: { kind: 'SYSTEM' }, payload: { n: 2 } }]);
    await waitFor(() => got.includes('TASK_UNARCHIVED'), 'the live subscriber to receive the unsequenced event (safety poll)', { timeoutMs: 15_000 });
    assert.deepEqual(got, ['TASK_ARCHIVED', 'TASK_UNARCHIVED']);
  } finally {
    stop();
    await client.dispose();
  }
});

test('the log stays append-only: a position is set once, and nothing else of an event ever changes', async () => {
  const { prisma } = t.app.deps;
  const task = await prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'immutable' } });
  await appendNow(t.app.deps, task.id, [{ type: 'TASK_ARCHIVED', actor: { kind: 'SYSTEM' }, payload: { v: 1 } }]);
  await t.app.deps.notifier.drain();
  const e = await prisma.taskEvent.findFirstOrThrow({ where: { taskId: task.id } });
  assert.ok(e.position !== null);
  const refused = /append-only/;
  await assert.rejects(prisma.$executeRawUnsafe(`UPDATE task_events SET type = 'TASK_UNARCHIVED' WHERE id = $1`, e.id), refused);
  await assert.rejects(prisma.$executeRawUnsafe(`UPDATE task_events SET position = position + 1000 WHERE id = $1`, e.id), refused);
  await assert.rejects(prisma.$executeRawUnsafe(`UPDATE task_events SET position = NULL WHERE id = $1`, e.id), refused);
  await assert.rejects(prisma.$executeRawUnsafe(`UPDATE task_events SET payload = '{"v":2}' WHERE id = $1`, e.id), refused);
  // An unsequenced event may get its position, but not with anything else changed on the way.
  await appendEvents(prisma, task.id, [{ type: 'TASK_PROMOTED', actor: { kind: 'SYSTEM' } }]);
  const c = await prisma.taskEvent.findFirstOrThrow({ where: { taskId: task.id, type: 'TASK_PROMOTED' } });
  assert.equal(c.position, null);
  await assert.rejects(prisma.$executeRawUnsafe(`UPDATE task_events SET position = 999999, type = 'D' WHERE id = $1`, c.id), refused);
  assert.deepEqual((await prisma.taskEvent.findMany({ where: { taskId: task.id }, orderBy: { seq: 'asc' } })).map((r) => r.type), ['TASK_ARCHIVED', 'TASK_PROMOTED']);
});

test('appends and the sequencer never wait for each other (so they cannot close a deadlock cycle together)', async () => {
  const { prisma } = t.app.deps;
  const task = await prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'no waiting' } });
  const other = await prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'no waiting 2' } });
  const a = new pg.Client({ connectionString: t.dbUrl });
  const b = new pg.Client({ connectionString: t.dbUrl });
  await a.connect();
  await b.connect();
  try {
    // Waiting would show as a lock timeout, not as a slow test.
    await b.query(`SET lock_timeout = '3s'`);
    // 1. A transaction that appended (and so holds its foreign-key lock on the workspace row) stays
    //    open; the sequencer still runs through.
    await appendEvents(prisma, other.id, [{ type: 'NOTE', actor: { kind: 'SYSTEM' } }]);
    await a.query('BEGIN');
    await a.query(
      `INSERT INTO task_events (task_id, workspace_id, seq, type, actor_kind, payload, payload_size, payload_schema)
       SELECT id, workspace_id, last_event_seq + 1, 'OPEN', 'SYSTEM', 'null', 4, 'open/v1' FROM tasks WHERE id = $1::uuid`,
      [task.id],
    );
    await b.query(`SELECT * FROM atelier_sequence_events(ARRAY[$1::uuid])`, [t.a.workspaceId]);
    await a.query('ROLLBACK');
    // 2. A sequencing run holds the workspace row (its transaction stays open); an append still runs through.
    await appendEvents(prisma, other.id, [{ type: 'NOTE', actor: { kind: 'SYSTEM' } }]);
    await a.query('BEGIN');
    await a.query(`SELECT * FROM atelier_sequence_events(ARRAY[$1::uuid])`, [t.a.workspaceId]);
    await b.query(
      `INSERT INTO task_events (task_id, workspace_id, seq, type, actor_kind, payload, payload_size, payload_schema)
       SELECT id, workspace_id, 1, 'WHILE_SEQUENCING', 'SYSTEM', 'null', 4, 'open/v1' FROM tasks WHERE id = $1::uuid`,
      [task.id],
    );
    await a.query('COMMIT');
  } finally {
    await a.query('ROLLBACK').catch(() => {});
    await a.end();
    await b.end();
  }
});

test("an append outside a step seals under the task's current key, whatever key this process saw last", async () => {
  const { prisma } = t.app.deps;
  const task = await prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'keys change' } });
  const payload = { text: 'derived from memory' };
  const append = async (type: EventType) => {
    await appendNow(t.app.deps, task.id, [{ type, actor: { kind: 'AGENT' }, payload }]);
    const e = await prisma.taskEvent.findFirstOrThrow({ where: { taskId: task.id, type } });
    return [...sealedKeyIds(e.payload)];
  };
  const newKey = async () => {
    const [k] = await prisma.$queryRawUnsafe<{ id: string }[]>(
      `INSERT INTO data_keys (id, workspace_id, task_id, sources, sources_hash, material)
       VALUES (gen_random_uuid(), $1::uuid, $2::uuid, '{}', gen_random_uuid()::text, $3) RETURNING id::text`,
      t.a.workspaceId, task.id, newKeyMaterial(),
    );
    await prisma.$executeRawUnsafe(`UPDATE tasks SET sealing_key_id = $2::uuid WHERE id = $1::uuid`, task.id, k!.id);
    return k!.id;
  };
  assert.deepEqual(await append('NOTE'), [], 'no key: in the clear (and this process now remembers "no key")');
  const k1 = await newKey();
  assert.deepEqual(await append('TASK_UPDATED'), [k1], 'the key given meanwhile is used, not the remembered "none"');
  const k2 = await newKey();
  assert.deepEqual(await append('TOOL_CALL_DONE'), [k2], 'a newer key replaces the remembered one');
  await prisma.$executeRawUnsafe(`UPDATE data_keys SET material = NULL, destroyed_at = now(), destroyed_reason = 'FORGOTTEN' WHERE id = $1::uuid`, k2);
  assert.deepEqual(await append('TOOL_CALL_FAILED'), [], 'a destroyed key is never used again');
});

test('a sequencing run with nothing to do writes nothing', async () => {
  const { prisma } = t.app.deps;
  await t.app.deps.notifier.drain();
  await sequenceEvents(prisma, [t.a.workspaceId]);
  // A statement that wrote would have been given a transaction id; this one reads only.
  const [row] = await prisma.$queryRawUnsafe<{ xid: string | null }[]>(
    `SELECT (SELECT count(*) FROM atelier_sequence_events(ARRAY[$1::uuid]))::text AS n, pg_current_xact_id_if_assigned()::text AS xid`,
    t.a.workspaceId,
  );
  assert.equal(row!.xid, null);
});
