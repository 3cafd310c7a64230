// A real worker process killed with SIGKILL mid-run: another worker process takes the turn over
// (new generation) and finishes the task, one terminal state.
//
// What is guaranteed, and what this test asserts:
//  - effects exactly once: every call's effect goes through the product's write path keyed by the
//    call's idempotency key (here a document in the shared workspace), so each key has exactly one
//    object, one version and one OBJECT_CREATED event, even for a call that ran twice;
//  - calls at most once more: a call recorded done is never executed again; the one call the dead
//    worker had started and not recorded is executed again, once, by the takeover (its effect
//    was already committed, its result was not journalled).
// The fixture makes that crash happen for sure: the call with k = HANG_AT writes its document and
// then hangs until the worker is killed. `test_calls.executions` only counts executions; nothing in
// it makes an effect land once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gqlOk, toGlobalId } from './helpers/clients.ts';
import { CreateTask } from './helpers/documents.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { startServerProcess, type ServerProcess } from './helpers/process.ts';
import { waitFor } from './helpers/wait.ts';
import { CALLS_TABLE_SQL } from './fixtures/document-effects-plugin.ts';

const STEPS = 6;
const HANG_AT = 2;

let t: TestApp;
const workers: ServerProcess[] = [];
before(async () => {
  t = await startTestApp('workerproc');
  await t.app.deps.prisma.$executeRawUnsafe(CALLS_TABLE_SQL);
});
after(async () => {
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  await t.close();
});

function startWorkerProcess() {
  return startServerProcess(
    {
      DATABASE_URL: t.dbUrl,
      ATELIER_RUNTIME_PLUGIN: 'test/fixtures/document-effects-plugin.ts',
      ATELIER_LEASE_MS: '1000',
      ATELIER_WATCHDOG_MS: '200',
      ATELIER_STALE_QUEUED_MS: '2000',
      PLUGIN_STEPS: String(STEPS),
      PLUGIN_TOOL_MS: '100',
      PLUGIN_HANG_AT: String(HANG_AT),
    },
    60_000,
    ['--worker-only'],
    /Atelier worker running/,
  );
}

test('SIGKILL a worker process mid-call: another process finishes the task; every effect exactly once, only the call in flight re-executed (once)', async () => {
  const { prisma } = t.app.deps;
  const d = await gqlOk(t.url, t.a.ownerToken, CreateTask, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: 'killed' } });
  const taskId = fromGlobalId(d.createTask.task.id).id;
  const w1 = await startWorkerProcess();
  workers.push(w1);
  // Worker 1 is inside call k = HANG_AT: its document is written, its result not journalled.
  const inFlight = await waitFor(
    async () => {
      const [row] = await prisma.$queryRawUnsafe<{ key: string }[]>(
        `SELECT c.key FROM test_calls c JOIN tool_calls tc ON tc.id = c.key
          WHERE c.task_id = $1::uuid AND c.k = $2 AND tc.status = 'STARTED'
            AND EXISTS (SELECT 1 FROM object_versions v WHERE v.idempotency_key = c.key)`,
        taskId,
        HANG_AT,
      );
      return row?.key;
    },
    'worker 1 inside the call with its effect committed and its result not recorded',
    { timeoutMs: 30_000 },
  );
  await w1.stop('SIGKILL');
  const killedAt = Date.now();
  const w2 = await startWorkerProcess();
  workers.push(w2);
  await waitFor(async () => (await prisma.task.findUniqueOrThrow({ where: { id: taskId } })).status === 'COMPLETED', 'task completed', { timeoutMs: 60_000 });

  // Calls: one per step; each executed once, except the one in flight at the kill: exactly twice.
  const calls = await prisma.$queryRawUnsafe<{ key: string; k: number; executions: number }[]>(
    'SELECT key, k, executions FROM test_calls WHERE task_id = $1::uuid ORDER BY k',
    taskId,
  );
  assert.deepEqual(
    calls.map((c) => ({ k: c.k, executions: c.executions })),
    Array.from({ length: STEPS }, (_, k) => ({ k, executions: k === HANG_AT ? 2 : 1 })),
    'a call recorded done never runs again; the call in flight at the kill runs once more',
  );
  assert.equal(calls.find((c) => c.k === HANG_AT)!.key, inFlight);
  // The journal says the same: every call DONE, the re-executed one with two attempts.
  const journal = await prisma.toolCall.findMany({ where: { taskId, name: 'write_section' }, orderBy: { stepIndex: 'asc' } });
  assert.deepEqual(
    journal.map((c) => ({ key: c.id, status: c.status, attempts: c.attempts })),
    calls.map((c) => ({ key: c.key, status: 'DONE', attempts: c.executions })),
    'the journal records each call once, done, with its attempts',
  );

  // Effects: exactly one per call's idempotency key — one object, one version, one creation event.
  const keys = calls.map((c) => c.key);
  const versions = await prisma.objectVersion.findMany({ where: { workspaceId: t.a.workspaceId, idempotencyKey: { in: keys } } });
  assert.deepEqual(
    keys.map((key) => versions.filter((v) => v.idempotencyKey === key).length),
    keys.map(() => 1),
    'one object version per idempotency key',
  );
  const objects = await prisma.workspaceObject.findMany({ where: { workspaceId: t.a.workspaceId, createdById: taskId } });
  assert.deepEqual(
    objects.map((o) => ({ name: o.name, currentVersion: o.currentVersion })).sort((a, b) => a.name.localeCompare(b.name)),
    Array.from({ length: STEPS }, (_, k) => ({ name: `Section ${k}`, currentVersion: 1 })),
    'one document per section, none written twice',
  );
  const created = await prisma.taskEvent.findMany({ where: { taskId, type: 'OBJECT_CREATED' } });
  assert.equal(created.length, STEPS, 'one OBJECT_CREATED event per document');

  const turn = await prisma.turn.findFirstOrThrow({ where: { taskId }, orderBy: { number: 'desc' } });
  assert.equal(turn.status, 'COMPLETED');
  assert.ok(turn.generation >= 2, 'taken over by a new generation');
  // The last takeover is the second process's. (On a starved machine the first process can miss its
  // own lease renewals and take its turn over itself before it is killed: that one comes earlier.)
  const takeover = await prisma.taskEvent.findFirst({ where: { taskId, type: 'TURN_STARTED', payload: { path: ['takeover'], equals: true } }, orderBy: { seq: 'desc' } });
  assert.ok(takeover, 'the takeover is on the record');
  assert.ok(takeover.occurredAt.getTime() >= killedAt);
  // Which process wrote what: each event records its worker, the killed one's up to the takeover,
  // the second one's from the takeover on.
  const events = await prisma.taskEvent.findMany({ where: { taskId }, orderBy: { seq: 'asc' } });
  const first = events.find((e) => e.type === 'TURN_STARTED')!;
  const [w1Id, w2Id] = [first, takeover].map((e) => (e.payload as { workerId: string }).workerId);
  assert.notEqual(w1Id, w2Id);
  assert.deepEqual(
    events.filter((e) => e.seq >= first.seq).map((e) => [e.seq, e.workerId]),
    events.filter((e) => e.seq >= first.seq).map((e) => [e.seq, e.seq < takeover.seq ? w1Id : w2Id]),
    'events record the worker that wrote them',
  );
  const ends = (await prisma.taskEvent.findMany({ where: { taskId, type: 'TASK_STATUS_CHANGED' } })).filter((e) =>
    ['COMPLETED', 'FAILED', 'CANCELLED'].includes((e.payload as { to: string }).to),
  );
  assert.equal(ends.length, 1);
});
