// A real worker process killed with SIGKILL mid-run: another worker process takes the turn over
// (new generation) and finishes the task; each tool effect happened exactly once, one terminal state.
// The fixture's tool upserts its effect by idempotency key (ON CONFLICT … runs = runs + 1), so the
// number of rows alone would hide a replay: `runs` counts executions. The guarantee for an
// IDEMPOTENT tool is: a call recorded done is never run again; only the one call the dead worker had
// started and not recorded is replayed, with the same key (so its effect still lands once).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gqlOk, toGlobalId } from './helpers/clients.ts';
import { CreateTask } from './helpers/documents.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { startServerProcess, type ServerProcess } from './helpers/process.ts';
import { eventually } from './helpers/produce.ts';
import { EFFECTS_TABLE_SQL } from './fixtures/runtime-plugin.ts';

let t: TestApp;
const workers: ServerProcess[] = [];
before(async () => {
  t = await startTestApp('workerproc');
  await t.app.deps.prisma.$executeRawUnsafe(EFFECTS_TABLE_SQL);
});
after(async () => {
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  await t.close();
});

function startWorkerProcess() {
  return startServerProcess(
    {
      DATABASE_URL: t.dbUrl,
      ATELIER_RUNTIME_PLUGIN: 'test/fixtures/runtime-plugin.ts',
      ATELIER_LEASE_MS: '1000',
      ATELIER_WATCHDOG_MS: '200',
      ATELIER_STALE_QUEUED_MS: '2000',
      PLUGIN_STEPS: '6',
      PLUGIN_TOOL_MS: '150',
    },
    60_000,
    ['--worker-only'],
    /Atelier worker running/,
  );
}

test('SIGKILL a worker process mid-run: another process finishes the task, effects exactly once', async () => {
  const { prisma } = t.app.deps;
  const d = await gqlOk(t.url, t.a.ownerToken, CreateTask, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: 'killed' } });
  const taskId = fromGlobalId(d.createTask.task.id).id;
  const w1 = await startWorkerProcess();
  workers.push(w1);
  await eventually(
    async () => (await prisma.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM test_effects WHERE task_id = $1::uuid', taskId))[0]!.n >= 2,
    'two effects by worker 1',
    30_000,
  );
  await w1.stop('SIGKILL');
  const killedAt = Date.now();
  const w2 = await startWorkerProcess();
  workers.push(w2);
  await eventually(async () => (await prisma.task.findUniqueOrThrow({ where: { id: taskId } })).status === 'COMPLETED', 'task completed', 60_000);

  const effects = await prisma.$queryRawUnsafe<{ key: string; k: number; runs: number }[]>('SELECT key, k, runs FROM test_effects WHERE task_id = $1::uuid ORDER BY k', taskId);
  assert.deepEqual(effects.map((e) => e.k), [0, 1, 2, 3, 4, 5], 'one effect row per step');
  const replayed = effects.filter((e) => e.runs !== 1);
  assert.ok(replayed.length <= 1, `at most the call in flight at the kill ran again: ${JSON.stringify(effects)}`);
  for (const e of replayed) assert.equal(e.runs, 2, 'a replayed call ran twice, never more');
  // Which calls the takeover replayed: exactly those the dead worker had STARTED and not recorded.
  const rerun = await prisma.taskEvent.findMany({ where: { taskId, type: 'TOOL_CALL_STARTED' }, orderBy: { seq: 'asc' } });
  const startedTwice = Object.entries(
    rerun.reduce<Record<string, number>>((m, ev) => {
      const id = String((ev.payload as { callId?: string; id?: string }).callId ?? (ev.payload as { id?: string }).id);
      m[id] = (m[id] ?? 0) + 1;
      return m;
    }, {}),
  ).filter(([, n]) => n > 1);
  const startedAgain = new Set(startedTwice.map(([id]) => id));
  for (const e of replayed) assert.ok(startedAgain.has(e.key), `the extra run of ${e.key} is the replay of a call started before the kill, on the record`);
  const turn = await prisma.turn.findFirstOrThrow({ where: { taskId }, orderBy: { number: 'desc' } });
  assert.equal(turn.status, 'COMPLETED');
  assert.ok(turn.generation >= 2, 'taken over by a new generation');
  const takeover = await prisma.taskEvent.findFirst({ where: { taskId, type: 'TURN_STARTED', payload: { path: ['takeover'], equals: true } } });
  assert.ok(takeover, 'the takeover is on the record');
  assert.ok(takeover.occurredAt.getTime() >= killedAt);
  const ends = (await prisma.taskEvent.findMany({ where: { taskId, type: 'TASK_STATUS_CHANGED' } })).filter((e) =>
    ['COMPLETED', 'FAILED', 'CANCELLED'].includes((e.payload as { to: string }).to),
  );
  assert.equal(ends.length, 1);
});
