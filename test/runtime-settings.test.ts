// The runtime's operating settings — job reconciliation interval, pg-boss expiry of a dead worker's
// active wake-up, retries of a failed one — are read from the environment with sane defaults and
// reach what they configure: the queues as pg-boss stores them (and the wake-up jobs it is sent),
// and the worker's reconciliation, counted in passes (never timed).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { createLogger } from '../server/log.ts';
import { RECOVERY_QUEUE, TURN_QUEUE } from '../server/store/scheduler.ts';
import { startWorker } from '../server/runtime/worker.ts';
import { startTestApp, testConfig, type TestApp } from './helpers/app.ts';
import { gqlOk, toGlobalId } from './helpers/clients.ts';
import { CreateTask } from './helpers/documents.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { waitFor } from './helpers/wait.ts';

const apps: TestApp[] = [];
after(async () => {
  for (const a of apps.splice(0)) await a.close();
});

/** The runtime settings as `loadConfig` reads them from these environment variables. */
const fromEnv = (env: Record<string, string>) => loadConfig({ ATELIER_LOG_LEVEL: 'silent', ...env }).runtime;

test('the settings come from the environment, with defaults, and bad values are refused', () => {
  const d = loadConfig({});
  assert.equal(d.runtime.reconcileMs, undefined, 'unset: reconciliation runs at the watchdog period');
  assert.equal(d.runtime.watchdogMs, 1_000);
  assert.equal(d.runtime.leaseMs, 5_000, 'a dead worker stalls a task about lease + 1 s by default');
  assert.equal(d.runtime.queueExpireSeconds, 900);
  assert.equal(d.runtime.queueRetryLimit, 3);
  const set = fromEnv({ ATELIER_RECONCILE_MS: '750', ATELIER_QUEUE_EXPIRE_SECONDS: '42', ATELIER_QUEUE_RETRY_LIMIT: '7' });
  assert.deepEqual([set.reconcileMs, set.queueExpireSeconds, set.queueRetryLimit], [750, 42, 7]);
  assert.equal(fromEnv({ ATELIER_QUEUE_RETRY_LIMIT: '0' }).queueRetryLimit, 0, 'no retries is a setting');
  for (const [name, value] of [
    ['ATELIER_RECONCILE_MS', '10'],
    ['ATELIER_RECONCILE_MS', 'soon'],
    ['ATELIER_QUEUE_EXPIRE_SECONDS', '0'],
    ['ATELIER_QUEUE_RETRY_LIMIT', '-1'],
    ['ATELIER_QUEUE_RETRY_LIMIT', '1000'],
  ] as const) {
    assert.throws(() => loadConfig({ [name]: value }), new RegExp(`Invalid configuration:[\\s\\S]*${name}`), `${name}=${value}`);
  }
});

test('expiry and retry limit reach pg-boss: both turn queues and the wake-ups sent to them; a restart with other settings updates them', async () => {
  const t = await startTestApp('settings-queue', { runtime: { ...testConfig().runtime, ...fromEnv({ ATELIER_QUEUE_EXPIRE_SECONDS: '42', ATELIER_QUEUE_RETRY_LIMIT: '7' }) } });
  apps.push(t);
  const boss = t.app.deps.scheduler.boss;
  for (const name of [TURN_QUEUE, RECOVERY_QUEUE]) {
    const q = await boss.getQueue(name);
    assert.ok(q, name);
    assert.deepEqual({ expireInSeconds: q.expireInSeconds, retryLimit: q.retryLimit }, { expireInSeconds: 42, retryLimit: 7 }, name);
  }
  // A task's wake-up (no worker runs here, so it stays queued) carries the queue's settings.
  const d = await gqlOk(t.url, t.a.ownerToken, CreateTask, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: 'settings' } });
  const turn = await t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: fromGlobalId(d.createTask.task.id).id } });
  const jobs = await t.app.deps.prisma.$queryRawUnsafe<{ retry_limit: number; expire_seconds: number }[]>(
    `SELECT retry_limit, expire_seconds FROM pgboss.job WHERE name = $1 AND data->>'turnId' = $2`,
    TURN_QUEUE,
    turn.id,
  );
  assert.deepEqual(jobs, [{ retry_limit: 7, expire_seconds: 42 }]);

  // Another process on the same database with the defaults: the queues follow the newest settings.
  const other = await createApp(testConfig(), t.dbUrl, { log: createLogger('silent') });
  try {
    for (const name of [TURN_QUEUE, RECOVERY_QUEUE]) {
      const q = await other.deps.scheduler.boss.getQueue(name);
      assert.deepEqual({ expireInSeconds: q?.expireInSeconds, retryLimit: q?.retryLimit }, { expireInSeconds: 900, retryLimit: 3 }, name);
    }
  } finally {
    await other.close();
  }
});

/** A worker app with these runtime settings from the environment; its worker's pass counters. */
async function workerWith(label: string, env: Record<string, string>) {
  const t = await startTestApp(label, { runtime: { ...testConfig().runtime, ...fromEnv(env) } }, {}, { worker: { concurrency: 1 } });
  apps.push(t);
  const stats = t.worker!.stats!;
  return { t, stats };
}

test('ATELIER_RECONCILE_MS shorter than the watchdog period: reconciliation runs on its own interval', async () => {
  const { stats } = await workerWith('settings-rec-short', { ATELIER_WATCHDOG_MS: '600000', ATELIER_RECONCILE_MS: '50' });
  await waitFor(() => stats().reconciliations >= 5, 'five reconciliation passes');
  assert.equal(stats().watchdogTicks, 0, 'with no watchdog pass in between');
});

test('ATELIER_RECONCILE_MS longer than the watchdog period: the watchdog passes do not reconcile', async () => {
  const { stats } = await workerWith('settings-rec-long', { ATELIER_WATCHDOG_MS: '50', ATELIER_RECONCILE_MS: '3600000' });
  await waitFor(() => stats().watchdogTicks >= 10, 'ten watchdog passes');
  assert.equal(stats().reconciliations, 0);
});

test('ATELIER_RECONCILE_MS unset: reconciliation runs at the watchdog period, on a timer of its own', async () => {
  const { stats } = await workerWith('settings-rec-default', { ATELIER_WATCHDOG_MS: '50' });
  await waitFor(() => stats().reconciliations >= 5 && stats().watchdogTicks >= 5, 'five passes of each');
});

test('a reconciliation that hangs (a provider that does not answer) does not hold up the watchdog', async () => {
  const t = await startTestApp('settings-rec-hang');
  apps.push(t);
  let started = 0;
  const w = await startWorker(t.app.deps.runtime, {
    concurrency: 1,
    watchdogMs: 50,
    staleQueuedMs: 60_000,
    reconcile: { run: () => { started++; return new Promise(() => {}); } },
  });
  try {
    await waitFor(() => w.stats!().watchdogTicks >= 10, 'ten watchdog passes while reconciliation hangs');
    assert.equal(started, 1, 'the hanging pass is not started again on top of itself');
    assert.equal(w.stats!().reconciliations, 0);
  } finally {
    await w.stop();
  }
});
