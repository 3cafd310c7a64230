// Generation-jobs benchmark: many simulated jobs under hostile callbacks (duplicates, out-of-order
// progress, failures, missing final callbacks, submissions with unknown outcome), each submitted
// twice at once with the same idempotency key (an old and a new worker). Afterwards the database,
// the provider and a subscriber in another process are checked for the invariants of the jobs layer
// and the ledger (./jobs/checks.ts).
//
// Latency: from the provider emitting a job's final callback to the JOB_SUCCEEDED/JOB_FAILED event
// reaching a subscriber in another process (./jobs/subscriber.ts: its own hub, woken by NOTIFY),
// beside a bare INSERT … + pg_notify received by a LISTEN connection in that same process. The
// baseline is sampled during the load (same load) and, one at a time, alternately with single jobs
// afterwards (ABAB…); ratios are of medians.
//
//   npm run bench:jobs                full run (1,000 jobs over 20 tasks)
//   npm run bench:jobs -- --quick     smoke run (100 jobs over 5 tasks)
//
// Prints tables, then the verdict and one line `BENCH_RESULT {json}`. Exits 1 when an invariant is
// violated or a ratio is past its ceiling.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { sequenceEvents } from '../../server/channel/sequencer.ts';
import { reconcileJobs, submitGeneration } from '../../server/generation/jobs.ts';
import { SimulatedProvider } from '../../server/generation/simulated.ts';
import { TERMINAL_JOB } from '../../server/generation/status.ts';
import type { GenerationKind } from '../../server/generation/types.ts';
import { startTestApp } from '../helpers/app.ts';
import { checkJobs, jobsFigures, jobsGates, jobsTargets, plantJobs, type JobEvent, type JobsCollected, type JobsLatency } from './jobs/checks.ts';
import { BASELINE_CHANNEL, monoMs, type SubscriberMessage } from './jobs/subscriber.ts';
import { fmt, percentile, round, table } from './stats.ts';
import { pause, reached } from '../helpers/wait.ts';
import { plantRequested, targetLines, verdict } from './verdict.ts';

const QUICK = process.argv.includes('--quick');
const CFG = QUICK
  ? { mode: 'quick', jobs: 100, tasks: 5, quietJobs: 12, settleTimeoutMs: 60_000 }
  : { mode: 'full', jobs: 1000, tasks: 20, quietJobs: 40, settleTimeoutMs: 180_000 };
const SIM = {
  latencyMs: { IMAGE: 300, VIDEO: 600, AUDIO: 400, MODEL_3D: 800 },
  failureRate: 0.1,
  unknownSubmitRate: 0.03,
  duplicateCallbackRate: 0.3,
  outOfOrderRate: 0.3,
  missingCallbackRate: 0.1,
  seed: 20_251_129,
};
/** Reconciliation as the worker runs it (alsoEachTick), faster: jobs silent this long are polled. */
const RECONCILE_EVERY_MS = 250;
const SILENT_MS = 1500;
/** The baseline is sampled this often during the load. */
const PROBE_EVERY_MS = 25;
const KINDS: GenerationKind[] = ['IMAGE', 'VIDEO', 'AUDIO', 'MODEL_3D'];
const isFinal = (s: string) => (TERMINAL_JOB as readonly string[]).includes(s);

/** Callbacks the in-process provider has yet to deliver (its engine's timers; private, read for this only). */
const pendingCallbacks = (p: SimulatedProvider) => (p as unknown as { engine: { timers: Map<string, unknown> } }).engine.timers.size;

async function main(): Promise<number> {
  const started = performance.now();
  const filesDir = mkdtempSync(join(tmpdir(), 'atelier-bench-jobs-'));
  const provider = new SimulatedProvider({ filesDir, ...SIM });
  // Registered before the app's listener: the timestamp is taken as the provider emits.
  const finalEmittedAt = new Map<string, number>();
  provider.onUpdate((u) => {
    if (isFinal(u.status) && !finalEmittedAt.has(u.upstreamJobId)) finalEmittedAt.set(u.upstreamJobId, monoMs());
  });
  const t = await startTestApp('bench_jobs', {}, { provider });
  const { app } = t;
  const { prisma } = app.deps;
  const jobs = app.deps.jobs;
  const child = fork(new URL('./jobs/subscriber.ts', import.meta.url).pathname, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const probe = new pg.Client({ connectionString: t.dbUrl });
  try {
    const v = await prisma.$queryRawUnsafe<{ v: string }[]>(`SELECT current_setting('server_version') AS v`);
    const pgVersion = `PostgreSQL ${v[0]!.v}`;
    process.stderr.write(`bench:jobs (${CFG.mode}) on ${pgVersion}\n`);
    const ws = t.a;
    const tasks = [];
    for (let w = 0; w < CFG.tasks; w++) tasks.push(await prisma.task.create({ data: { workspaceId: ws.workspaceId, title: `bench jobs ${w}` } }));

    // ---- the subscriber process
    const streamPositions: number[] = [];
    const deliveredFinals: string[] = [];
    const receivedAt = new Map<string, number>();
    const baselineAt = new Map<number, number>();
    let childError: string | undefined;
    const ready = new Promise<void>((resolve, reject) => {
      child.on('message', (m: SubscriberMessage) => {
        if (m.type === 'ready') resolve();
        else if (m.type === 'events') {
          for (const [position, , jobId, at] of m.receipts) {
            streamPositions.push(position);
            if (jobId) {
              deliveredFinals.push(jobId);
              if (!receivedAt.has(jobId)) receivedAt.set(jobId, at);
            }
          }
        } else if (m.type === 'baseline') for (const [i, at] of m.samples) baselineAt.set(i, at);
        else {
          childError = m.message;
          reject(new Error(m.message));
        }
      });
      child.once('exit', (code) => reject(new Error(`subscriber process exited with ${code}`)));
    });
    child.send({ dbUrl: t.dbUrl, workspaceId: ws.workspaceId });
    await ready;

    // ---- the baseline: INSERT … + pg_notify from this process, received in the subscriber process
    await probe.connect();
    await probe.query('CREATE TABLE bench_notify (id bigserial PRIMARY KEY, payload jsonb NOT NULL)');
    const sentAt = new Map<number, number>();
    let nextSample = 0;
    const sample = async () => {
      const i = nextSample++;
      const t0 = monoMs();
      sentAt.set(i, t0);
      await probe.query(`WITH i AS (INSERT INTO bench_notify (payload) VALUES ($1::text::jsonb) RETURNING id) SELECT pg_notify('${BASELINE_CHANNEL}', $2::text) FROM i`, [
        JSON.stringify({ i, t: t0 }),
        String(i),
      ]);
      return i;
    };
    const baselineMs = (ids: number[]) => ids.flatMap((i) => (baselineAt.has(i) ? [baselineAt.get(i)! - sentAt.get(i)!] : []));
    for (let i = 0; i < 20; i++) await sample(); // warm-up, not counted
    await reached(() => baselineAt.size >= 20, { timeoutMs: 10_000 });

    // ---- reconciliation by polling, as the worker's tick does it
    let reconciling = true;
    let reconcileRuns = 0;
    let polled = 0;
    let resolvedUnknown = 0;
    const reconciler = (async () => {
      while (reconciling) {
        const r = await reconcileJobs(jobs, { silentMs: SILENT_MS });
        reconcileRuns++;
        polled += r.polled;
        resolvedUnknown += r.resolvedUnknown;
        // The reconciler's period, as the worker's tick runs it.
        await pause(RECONCILE_EVERY_MS);
      }
    })();
    const open = () => prisma.generationJob.count({ where: { workspaceId: ws.workspaceId, status: { notIn: ['SUCCEEDED', 'FAILED', 'CANCELLED'] } } });

    // ---- the load: `tasks` concurrent loops, each job submitted twice at once with one key, the
    // baseline probed throughout
    const loadSamples: number[] = [];
    let probing = true;
    const prober = (async () => {
      while (probing) {
        loadSamples.push(await sample());
        // The probe's pace: baseline samples spread over the load.
        await pause(PROBE_EVERY_MS);
      }
    })();
    let submitErrors = 0;
    let mismatchedPairs = 0;
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      tasks.map(async (task, w) => {
        for (let i = next++; i < CFG.jobs; i = next++) {
          const req = { workspaceId: ws.workspaceId, taskId: task.id, kind: KINDS[i % KINDS.length]!, prompt: `bench job ${i}`, params: {}, idempotencyKey: `bench:${w}:${i}` };
          // A failed attempt is retried with the same key, as the runtime retries an IDEMPOTENT call on resume.
          for (let attempt = 1; attempt <= 3; attempt++) {
            const [a, b] = await Promise.allSettled([submitGeneration(jobs, req), submitGeneration(jobs, req)]);
            if (a.status === 'fulfilled' && b.status === 'fulfilled') {
              if (a.value.id !== b.value.id) mismatchedPairs++;
              break;
            }
            if (++submitErrors <= 3) console.error(`  submit attempt failed: ${String((a.status === 'rejected' ? a.reason : (b as PromiseRejectedResult).reason)).split('\n')[0]}`);
          }
        }
      }),
    );
    const submitS = (performance.now() - t0) / 1000;
    process.stderr.write(`  submitted ${CFG.jobs} jobs ×2 in ${submitS.toFixed(1)} s\n`);
    let openAtDeadline = Infinity;
    await reached(async () => (openAtDeadline = await open()) === 0, { timeoutMs: CFG.settleTimeoutMs, intervalMs: 200 });
    const settleS = (performance.now() - t0) / 1000;
    probing = false;
    await prober;
    process.stderr.write(`  settled in ${settleS.toFixed(1)} s (${openAtDeadline} open)\n`);

    // ---- one job at a time, alternating with one baseline sample (ABAB…)
    const quietIds: string[] = [];
    const quietSamples: number[] = [];
    for (let i = 0; i < CFG.quietJobs; i++) {
      const j = await submitGeneration(jobs, { workspaceId: ws.workspaceId, taskId: tasks[0]!.id, kind: 'IMAGE', prompt: `quiet ${i}`, params: {}, idempotencyKey: `quiet:${i}` });
      quietIds.push(j.id);
      await reached(() => receivedAt.has(j.id), { timeoutMs: 10_000 });
      const s = await sample();
      quietSamples.push(s);
      await reached(() => baselineAt.has(s), { timeoutMs: 5_000 });
    }
    // Everything final (the quiet jobs too), then late callbacks, then the last reconciliation.
    const quietOpen = (await reached(async () => (await open()) === 0, { timeoutMs: 30_000, intervalMs: 200 })) ? 0 : await open();
    openAtDeadline = Math.max(openAtDeadline, quietOpen);
    // Stale (out-of-order) and duplicate callbacks come after a job's end: the checks need every one
    // of them delivered (and found to change nothing) first.
    await reached(() => pendingCallbacks(provider) === 0, { timeoutMs: 10_000 });
    reconciling = false;
    await reconciler;
    await reconcileJobs(jobs, { silentMs: 0 });

    // ---- collect
    const rows = await prisma.generationJob.findMany({ where: { workspaceId: ws.workspaceId } });
    // The head as a reader reads it: after sequencing what is committed (server/channel/sequencer.ts).
    const lastPosition = (await sequenceEvents(prisma, [ws.workspaceId])).get(ws.workspaceId) ?? 0;
    await reached(() => streamPositions.length >= lastPosition && baselineAt.size >= nextSample, { timeoutMs: 15_000 });
    child.send('stop');
    await new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
    if (childError) throw new Error(`subscriber process: ${childError}`);
    const ledger = await prisma.$queryRawUnsafe<{ jobId: string; kind: string; amountCents: number }[]>(
      `SELECT job_id::text AS "jobId", kind::text AS kind, amount_cents::int AS "amountCents" FROM ledger_entries WHERE workspace_id = $1::uuid`,
      ws.workspaceId,
    );
    const evs = await prisma.taskEvent.findMany({
      where: { workspaceId: ws.workspaceId, type: { startsWith: 'JOB_' } },
      orderBy: [{ taskId: 'asc' }, { seq: 'asc' }],
      select: { type: true, payload: true },
    });
    const events: JobEvent[] = evs.map((e) => ({ type: e.type, ...(e.payload as { jobId: string; status: string; progress?: number }) }));
    const unknownSubmitted = new Set(events.filter((e) => e.type === 'JOB_SUBMISSION_UNKNOWN').map((e) => e.jobId));
    let collected: JobsCollected = {
      expectedJobs: CFG.jobs + CFG.quietJobs,
      upstreamSubmissions: provider.submits,
      mismatchedPairs,
      openAtDeadline,
      jobs: await Promise.all(
        rows.map(async (r) => ({
          id: r.id, idempotencyKey: r.idempotencyKey, status: r.status, upstreamJobId: r.upstreamJobId, quoteCents: r.quoteCents,
          providerStatus: r.upstreamJobId ? (await provider.status(r.upstreamJobId)).status : null,
        })),
      ),
      ledger,
      events,
      streamPositions,
      lastPosition,
      deliveredFinals,
    };
    const planted = plantRequested();
    if (planted) collected = plantJobs(collected, planted);

    // Latency: only completions delivered by the provider's final callback (a missing callback,
    // recovered by polling, or one for a job whose submission was unclear has no such path).
    const callbackLatencies = (list: typeof rows) => {
      const xs: number[] = [];
      for (const r of list) {
        const emitted = r.upstreamJobId ? finalEmittedAt.get(r.upstreamJobId) : undefined;
        const recv = receivedAt.get(r.id);
        if (emitted !== undefined && !unknownSubmitted.has(r.id) && recv !== undefined && recv >= emitted) xs.push(recv - emitted);
      }
      return xs;
    };
    const quietSet = new Set(quietIds);
    const latency: JobsLatency = {
      underLoad: callbackLatencies(rows.filter((r) => !quietSet.has(r.id))),
      baselineUnderLoad: baselineMs(loadSamples),
      quiet: callbackLatencies(rows.filter((r) => quietSet.has(r.id))),
      baselineQuiet: baselineMs(quietSamples),
    };
    const notInSample = CFG.jobs - latency.underLoad.length;
    const violations = checkJobs(collected);
    const gates = jobsGates(latency);
    const f = jobsFigures(latency);

    const byStatus = (s: string) => collected.jobs.filter((j) => j.status === s).length;
    const cents = (k: string) => collected.ledger.filter((l) => l.kind === k).reduce((n, l) => n + l.amountCents, 0);
    const totalS = (performance.now() - started) / 1000;
    const out: string[] = [''];
    out.push(`Atelier generation jobs benchmark (${CFG.mode}) — ${pgVersion}, node ${process.version}`);
    out.push(
      `  ${CFG.jobs} simulated jobs over ${CFG.tasks} concurrent tasks, each submitted twice at once with one key, then ${CFG.quietJobs} one at a time; provider: ` +
        `failures ${SIM.failureRate}, unclear submissions ${SIM.unknownSubmitRate}, duplicate ${SIM.duplicateCallbackRate}, ` +
        `out-of-order ${SIM.outOfOrderRate}, missing final ${SIM.missingCallbackRate}; reconcile every ${RECONCILE_EVERY_MS} ms (silent ${SILENT_MS} ms).`,
    );
    out.push('');
    out.push(
      table(
        ['figure', 'value'],
        [
          ['orders / distinct keys / upstream submissions', `${collected.jobs.length} / ${new Set(collected.jobs.map((j) => j.idempotencyKey)).size} / ${collected.upstreamSubmissions} (of ${collected.expectedJobs})`],
          ['submission attempts that errored (retried)', String(submitErrors)],
          ['succeeded / failed / cancelled', `${byStatus('SUCCEEDED')} / ${byStatus('FAILED')} / ${byStatus('CANCELLED')}`],
          ['ledger held / charged / released ¢', `${cents('HOLD')} / ${cents('CHARGE')} / ${cents('RELEASE')}`],
          ['reconcile runs / polled / unclear resolved', `${reconcileRuns} / ${polled} / ${resolvedUnknown}`],
          ['events the subscriber process received / last position', `${collected.streamPositions.length} / ${collected.lastPosition}`],
        ],
      ),
    );
    out.push('');
    out.push(`  latency: provider emits the final callback → JOB_SUCCEEDED/JOB_FAILED reaches a subscriber in another process (its own hub, woken by NOTIFY)`);
    out.push(`  baseline: INSERT … + pg_notify in one statement → a LISTEN connection in that same subscriber process (both on the monotonic clock)`);
    out.push(`  under load: the baseline probed every ${PROBE_EVERY_MS} ms during the load; one at a time: job, sample, job, sample, … (medians)`);
    out.push(
      table(
        ['path', 'samples', 'p50 ms', 'p99 ms', 'ratio p50'],
        [
          ['callback → subscriber, under load', String(latency.underLoad.length), fmt(f.loadP50, 2), fmt(f.loadP99, 2), fmt(f.loadRatioP50, 1)],
          ['INSERT+NOTIFY, under the same load', String(latency.baselineUnderLoad.length), fmt(f.baseLoadP50, 2), fmt(f.baseLoadP99, 2), ''],
          ['callback → subscriber, one job at a time', String(latency.quiet.length), fmt(f.quietP50, 2), fmt(percentile(latency.quiet, 99), 2), fmt(f.quietRatioP50, 1)],
          ['INSERT+NOTIFY, interleaved with those', String(latency.baselineQuiet.length), fmt(f.baseQuietP50, 2), fmt(percentile(latency.baselineQuiet, 99), 2), ''],
        ],
      ),
    );
    out.push(`  ${notInSample} load-phase completions without a deliverable final callback (missing, unclear submission, or polled first) are not in the sample.`);
    out.push(`  submit phase ${submitS.toFixed(1)} s, all final after ${settleS.toFixed(1)} s; total ${totalS.toFixed(1)} s`);
    console.log(out.join('\n'));
    console.log(targetLines('bench:jobs', jobsTargets(latency)).join('\n'));
    const code = verdict('bench:jobs', violations, gates, planted);
    console.log(
      `BENCH_RESULT ${JSON.stringify({
        mode: CFG.mode, postgres: pgVersion, node: process.version, jobs: CFG.jobs, quietJobs: CFG.quietJobs, tasks: CFG.tasks, submitErrors,
        orders: collected.jobs.length, upstreamSubmissions: collected.upstreamSubmissions,
        succeeded: byStatus('SUCCEEDED'), failed: byStatus('FAILED'),
        ledger: { heldCents: cents('HOLD'), chargedCents: cents('CHARGE'), releasedCents: cents('RELEASE') },
        reconcile: { runs: reconcileRuns, polled, resolvedUnknown },
        latency: {
          underLoad: { samples: latency.underLoad.length, p50: round(f.loadP50, 3), p99: round(f.loadP99, 3), baselineP50: round(f.baseLoadP50, 3), ratioP50: round(f.loadRatioP50, 2) },
          quiet: { samples: latency.quiet.length, p50: round(f.quietP50, 3), baselineP50: round(f.baseQuietP50, 3), ratioP50: round(f.quietRatioP50, 2) },
        },
        targets: jobsTargets(latency).map((x) => ({ ...x, value: round(x.value, 3) })),
        gates: gates.map((g) => ({ ...g, value: round(g.value, 3) })),
        settleSeconds: round(settleS, 1),
        totalSeconds: round(totalS, 1),
        violations,
      })}`,
    );
    return code;
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await probe.end().catch(() => {});
    await t.close();
    rmSync(filesDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
