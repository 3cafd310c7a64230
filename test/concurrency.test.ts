// Concurrent appenders never create a gap or a duplicate: per task (seq) and per workspace (position).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { transactWithEvents } from '../server/channel/unit-of-work.ts';
import { appendNow } from '../server/channel/unit-of-work.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { range } from './helpers/produce.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp('concurrency');
});
after(async () => {
  await t.close();
});

test('20 concurrent writers on one task and on sibling tasks: seq and position stay gap-free and unique', async () => {
  const { prisma } = t.app.deps;
  const shared = await prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'shared' } });
  const own = await Promise.all(range(1, 20).map((i) => prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: `own ${i}` } })));
  const PER_WRITER = 25;
  const writers = range(0, 19).map(async (w) => {
    for (let i = 0; i < PER_WRITER; i++) {
      // Alternate the transactional path and the single-statement path; some transactions append
      // two events to two tasks at once.
      if (i % 3 === 0) {
        await appendNow(t.app.deps, shared.id, [{ type: 'NOTE', actor: { kind: 'AGENT' }, payload: { w, i } }]);
      } else {
        await transactWithEvents(t.app.deps, async (_tx, emit) => {
          emit(shared.id, { type: 'NOTE', actor: { kind: 'AGENT' }, payload: { w, i } });
          if (i % 2 === 0) emit(own[w]!.id, { type: 'NOTE', actor: { kind: 'AGENT' }, payload: { w, i } });
        });
      }
    }
  });
  await Promise.all(writers);
  // The writers' process sequences what it committed right after each commit (one flush per burst).
  await t.app.deps.notifier.drain();
  assert.equal(await prisma.taskEvent.count({ where: { workspaceId: t.a.workspaceId, position: null } }), 0, 'every committed event sequenced');

  const sharedSeqs = (await prisma.taskEvent.findMany({ where: { taskId: shared.id }, orderBy: { seq: 'asc' }, select: { seq: true } })).map((r) => r.seq);
  assert.deepEqual(sharedSeqs, range(1, 20 * PER_WRITER));
  for (const task of own) {
    const seqs = (await prisma.taskEvent.findMany({ where: { taskId: task.id }, orderBy: { seq: 'asc' }, select: { seq: true } })).map((r) => r.seq);
    assert.deepEqual(seqs, range(1, seqs.length));
    assert.equal((await prisma.task.findUniqueOrThrow({ where: { id: task.id } })).lastEventSeq, seqs.length);
  }
  const positions = (
    await prisma.taskEvent.findMany({ where: { workspaceId: t.a.workspaceId }, orderBy: { position: 'asc' }, select: { position: true } })
  ).map((r) => Number(r.position));
  assert.deepEqual(positions, range(1, positions.length), 'workspace positions gap-free');
  const ws = await prisma.workspace.findUniqueOrThrow({ where: { id: t.a.workspaceId } });
  assert.equal(Number(ws.eventPosition), positions.length);
  // Per-task order agrees with workspace order.
  const rows = await prisma.taskEvent.findMany({ where: { taskId: shared.id }, orderBy: { seq: 'asc' }, select: { position: true } });
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i]!.position! > rows[i - 1]!.position!);
});

test('a failed transaction leaves no event and no gap', async () => {
  const { prisma } = t.app.deps;
  const task = await prisma.task.create({ data: { workspaceId: t.b.workspaceId, title: 'rollback' } });
  await transactWithEvents(t.app.deps, async (_tx, emit) => emit(task.id, { type: 'TASK_ARCHIVED', actor: { kind: 'SYSTEM' } }));
  await assert.rejects(
    transactWithEvents(t.app.deps, async (tx, emit) => {
      emit(task.id, { type: 'TASK_UNARCHIVED', actor: { kind: 'SYSTEM' } });
      await tx.task.update({ where: { id: task.id }, data: { title: 'changed' } });
      throw new Error('boom after the state change');
    }),
    /boom/,
  );
  await transactWithEvents(t.app.deps, async (_tx, emit) => emit(task.id, { type: 'TASK_PROMOTED', actor: { kind: 'SYSTEM' } }));
  const evs = await prisma.taskEvent.findMany({ where: { taskId: task.id }, orderBy: { seq: 'asc' } });
  assert.deepEqual(evs.map((e) => [e.seq, e.type]), [[1, 'TASK_ARCHIVED'], [2, 'TASK_PROMOTED']]);
  assert.equal((await prisma.task.findUniqueOrThrow({ where: { id: task.id } })).title, 'rollback');
});
