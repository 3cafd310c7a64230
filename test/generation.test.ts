// Generation jobs: forward-only status, duplicate and out-of-order callbacks, a lost callback
// recovered by polling, an unclear submission reconciled instead of resubmitted, one job per
// idempotency key under concurrent submissions, and real files from the simulated provider.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { applyUpdate, ledgerSummary, listenToProvider, reconcileJobs, submitGeneration, type JobDeps } from '../server/generation/jobs.ts';
import { renderImage, SimulatedProvider, type SimulatedOptions } from '../server/generation/simulated.ts';
import { SimulationEngine } from '../server/generation/simulation.ts';
import type { ProviderUpdate } from '../server/generation/types.ts';
import { advance } from '../server/generation/status.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { eventually } from './helpers/produce.ts';

describe('forward-only status (pure)', () => {
  test('a final state is final; status and progress never go back', () => {
    assert.equal(advance({ status: 'SUCCEEDED', progress: 1 }, { status: 'RUNNING', progress: 0.5 }), null);
    assert.equal(advance({ status: 'FAILED', progress: 0.3 }, { status: 'SUCCEEDED' }), null);
    assert.equal(advance({ status: 'RUNNING', progress: 0.6 }, { status: 'RUNNING', progress: 0.1 }), null);
    assert.equal(advance({ status: 'RUNNING', progress: 0.6 }, { status: 'QUEUED' }), null);
    assert.deepEqual(advance({ status: 'QUEUED', progress: 0 }, { status: 'RUNNING', progress: 0.1 }), { status: 'RUNNING', progress: 0.1 });
    assert.deepEqual(advance({ status: 'RUNNING', progress: 0.6 }, { status: 'SUCCEEDED' }), { status: 'SUCCEEDED', progress: 1 });
  });
});

describe('simulated provider files', () => {
  test('images are real PNGs rendered from the prompt (same prompt, same picture)', () => {
    const a = renderImage('a red fox in the snow');
    assert.deepEqual([...a.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(a.readUInt32BE(16), 256);
    assert.equal(a.readUInt32BE(20), 256);
    assert.deepEqual(renderImage('a red fox in the snow'), a);
    assert.notDeepEqual(renderImage('a blue whale'), a);
  });
});

describe('simulated provider timeline', () => {
  test('the final callback says the job ended, even when a timer fires before the wall clock reaches the end', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-sim-'));
    const realNow = Date.now;
    const updates: ProviderUpdate[] = [];
    let finished!: () => void;
    const done = new Promise<void>((r) => (finished = r));
    const engine = new SimulationEngine({ filesDir: dir, latencyMs: { IMAGE: 60 }, failureRate: 1, emit: (u) => { updates.push(u); if (updates.length === 3) finished(); } });
    try {
      const { job } = engine.submit({ kind: 'IMAGE', prompt: 'clock skew', params: {}, idempotencyKey: 'skew' });
      engine.arm(job);
      // Timers run on a monotonic clock; the wall clock may read a little earlier when they fire.
      Date.now = () => realNow() - 10;
      const keepAlive = setInterval(() => {}, 1000); // the engine's timers do not hold the process open
      await done;
      clearInterval(keepAlive);
    } finally {
      Date.now = realNow;
      engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
    assert.deepEqual(updates.map((u) => u.status), ['RUNNING', 'RUNNING', 'FAILED']);
  });
});

describe('job lifecycle', () => {
  let t: TestApp;
  let dir: string;
  let n = 0;
  const providers: SimulatedProvider[] = [];
  before(async () => {
    t = await startTestApp('generation');
    dir = mkdtempSync(join(tmpdir(), 'atelier-gen-'));
  });
  after(async () => {
    for (const p of providers) p.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function setup(opts: Partial<SimulatedOptions>) {
    // 600 ms: the first callback (at 20%) comes well after the upstream id is persisted.
    const provider = new SimulatedProvider({ filesDir: dir, latencyMs: { IMAGE: 600 }, ...opts });
    providers.push(provider);
    const deps: JobDeps = { prisma: t.app.deps.prisma, notifier: t.app.deps.notifier, provider, log: t.app.deps.log };
    const stop = listenToProvider(deps);
    const task = await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: `gen ${++n}` } });
    return { provider, deps, stop, task };
  }
  const jobEvents = (taskId: string) =>
    t.app.deps.prisma.taskEvent.findMany({ where: { taskId, type: { startsWith: 'JOB_' } }, orderBy: { seq: 'asc' } });

  test('duplicate and out-of-order callbacks: one final state, no regression, one event per real change', async () => {
    const { deps, stop, task } = await setup({ duplicateCallbackRate: 1, outOfOrderRate: 1 });
    const job = await submitGeneration(deps, { workspaceId: t.a.workspaceId, taskId: task.id, kind: 'IMAGE', prompt: 'lighthouse at dusk', params: {}, idempotencyKey: 'k-dup' });
    await eventually(async () => (await t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id: job.id } })).callbacks >= 7, 'all callbacks delivered', 60_000);
    stop();
    const row = await t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id: job.id } });
    assert.equal(row.status, 'SUCCEEDED');
    assert.equal(row.progress, 1);
    const files = (row.result as { files: { path: string; mime: string }[] }).files;
    assert.equal(files[0]!.mime, 'image/png');
    assert.deepEqual([...readFileSync(files[0]!.path).subarray(1, 4)], [0x50, 0x4e, 0x47]);
    const events = await jobEvents(task.id);
    // Progress changes and the end, each callback duplicated and stale ones re-sent late. On a loaded
    // machine callbacks may be applied in any order, and one that does not raise progress changes nothing:
    // what must hold is one event per real change — progress strictly rising, nothing after the end.
    const types = events.map((e) => e.type);
    assert.equal(types[0], 'JOB_SUBMITTED');
    assert.equal(types.at(-1), 'JOB_SUCCEEDED');
    assert.equal(types.filter((x) => x === 'JOB_SUCCEEDED').length, 1, 'one final event');
    const progress = events.filter((e) => e.type === 'JOB_PROGRESS').map((e) => (e.payload as { progress: number }).progress);
    // A duplicate or a stale callback would repeat or lower a value: every event must raise it.
    assert.ok(progress.length >= 1, `progress was reported: ${types.join(',')}`);
    assert.deepEqual(progress, [...new Set(progress)].sort((x, y) => x - y), `each progress event is a real rise: ${progress.join(',')}`);
  });

  test('callbacks that beat submit()\'s answer are matched by the idempotency key: nothing is dropped, the stream stays in order', async () => {
    // 0 ms latency: every callback fires before the upstream id is persisted.
    const { deps, stop, task } = await setup({ latencyMs: { IMAGE: 0 } });
    const job = await submitGeneration(deps, { workspaceId: t.a.workspaceId, taskId: task.id, kind: 'IMAGE', prompt: 'fast lane', params: {}, idempotencyKey: 'k-fast' });
    await eventually(async () => (await t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id: job.id } })).status === 'SUCCEEDED', 'completed without polling', 60_000);
    stop();
    const row = await t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id: job.id } });
    assert.ok(row.upstreamJobId, 'the upstream id is attached');
    const types = (await jobEvents(task.id)).map((e) => e.type);
    assert.equal(types[0], 'JOB_SUBMITTED');
    assert.equal(types.filter((x) => x === 'JOB_SUBMITTED').length, 1);
    assert.equal(types.at(-1), 'JOB_SUCCEEDED');
  });

  test('a lost completion callback is recovered by polling', async () => {
    const { deps, stop, task } = await setup({ missingCallbackRate: 1 });
    const job = await submitGeneration(deps, { workspaceId: t.a.workspaceId, taskId: task.id, kind: 'IMAGE', prompt: 'quiet harbour', params: {}, idempotencyKey: 'k-lost' });
    await eventually(async () => (await t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id: job.id } })).progress >= 0.6, 'progress callbacks', 60_000);
    // The final callback never comes; wait until the provider has finished, then reconcile.
    await eventually(async () => (await deps.provider.status(job.upstreamJobId!)).status === 'SUCCEEDED', 'provider done', 60_000);
    assert.equal((await t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id: job.id } })).status, 'RUNNING');
    const r = await reconcileJobs(deps, { silentMs: 0 });
    assert.ok(r.polled >= 1);
    assert.equal((await t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id: job.id } })).status, 'SUCCEEDED');
    stop();
  });

  test('an unclear submission is not resubmitted: retries return the same job, reconciliation finds it by key', async () => {
    const { provider, deps, stop, task } = await setup({ unknownSubmitRate: 1 });
    // No callbacks: this is about reconciliation (a callback carrying the key would resolve it too).
    stop();
    const req = { workspaceId: t.a.workspaceId, taskId: task.id, kind: 'IMAGE' as const, prompt: 'paper boat', params: {}, idempotencyKey: 'k-unknown' };
    const first = await submitGeneration(deps, req);
    assert.equal(first.status, 'UNKNOWN');
    const again = await submitGeneration(deps, req);
    assert.equal(again.id, first.id);
    assert.equal(provider.submits, 1, 'never submitted twice');
    const r = await reconcileJobs(deps, { silentMs: 60_000 });
    assert.equal(r.resolvedUnknown, 1);
    const row = await t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id: first.id } });
    assert.ok(row.upstreamJobId, 'attached to the job the provider did create');
    assert.notEqual(row.status, 'UNKNOWN');
    stop();
  });

  test('two workers submitting the same call at once: one job, one submission', async () => {
    const { provider, deps, stop, task } = await setup({});
    const req = { workspaceId: t.a.workspaceId, taskId: task.id, kind: 'IMAGE' as const, prompt: 'twin', params: {}, idempotencyKey: 'turn:1:0' };
    const [a, b] = await Promise.all([submitGeneration(deps, req), submitGeneration(deps, req)]);
    assert.equal(a.id, b.id);
    assert.equal(provider.submits, 1);
    assert.equal(await t.app.deps.prisma.generationJob.count({ where: { idempotencyKey: 'turn:1:0' } }), 1);
    assert.equal(await t.app.deps.prisma.ledgerEntry.count({ where: { jobId: a.id, kind: 'HOLD' } }), 1, 'one order, one hold');
    stop();
  });

  test('ledger: success charges the quoted hold once, despite duplicate callbacks; per order hold = charge + release', async () => {
    const { deps, stop, task } = await setup({ duplicateCallbackRate: 1 });
    const job = await submitGeneration(deps, { workspaceId: t.a.workspaceId, taskId: task.id, kind: 'VIDEO', prompt: 'waves', params: {}, idempotencyKey: 'k-paid' });
    assert.equal(job.quoteCents, SimulatedProvider.PRICES.VIDEO);
    await eventually(async () => (await t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id: job.id } })).status === 'SUCCEEDED', 'done', 60_000);
    await eventually(async () => (await t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id: job.id } })).callbacks >= 6, 'duplicates delivered', 60_000);
    stop();
    const entries = await t.app.deps.prisma.ledgerEntry.findMany({ where: { jobId: job.id }, orderBy: { createdAt: 'asc' } });
    assert.deepEqual(entries.map((e) => [e.kind, e.amountCents]), [['HOLD', 40], ['CHARGE', 40]]);
    assert.deepEqual(await ledgerSummary(t.app.deps.prisma, { taskId: task.id }), { heldCents: 40, chargedCents: 40, releasedCents: 0, outstandingCents: 0, savedCents: 0 });
  });

  test('ledger: a failed job is refunded by rule (the hold is released, nothing charged)', async () => {
    const { deps, stop, task } = await setup({ failureRate: 1 });
    const job = await submitGeneration(deps, { workspaceId: t.a.workspaceId, taskId: task.id, kind: 'IMAGE', prompt: 'fails', params: {}, idempotencyKey: 'k-fail' });
    await eventually(async () => (await t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id: job.id } })).status === 'FAILED', 'failed', 60_000);
    stop();
    assert.deepEqual(await ledgerSummary(t.app.deps.prisma, { taskId: task.id }), { heldCents: 4, chargedCents: 0, releasedCents: 4, outstandingCents: 0, savedCents: 0 });
    await assert.rejects(t.app.deps.prisma.$executeRawUnsafe(`UPDATE ledger_entries SET amount_cents = 0 WHERE job_id = $1::uuid`, job.id), /append-only/);
  });

  test('updates for unknown upstream jobs are ignored', async () => {
    const { deps, stop } = await setup({});
    assert.equal(await applyUpdate(deps, { upstreamJobId: 'sim_nope', status: 'SUCCEEDED' }), false);
    stop();
  });
});
