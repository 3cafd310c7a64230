// Generation-jobs benchmark: many simulated jobs under hostile callbacks (duplicates, out-of-order
// progress, failures, missing final callbacks, submissions with unknown outcome), each submitted
// twice at once with the same idempotency key (an old and a new worker). Afterwards the database
// is checked for the invariants of the jobs layer and the ledger, and the delay from the provider's
// final callback to the event reaching a subscriber is set beside a bare INSERT+NOTIFY round trip
// measured in the same run on the same database.
//
//   npm run bench:jobs                full run (1,000 jobs over 20 tasks)
//   npm run bench:jobs -- --quick     smoke run (100 jobs over 5 tasks)
//
// Prints a table, then one line `BENCH_RESULT {json}`. Exits 1 when an invariant is violated
// (timings are reported, never judged).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createApp } from '../../server/app.ts';
import { reconcileJobs, submitGeneration } from '../../server/generation/jobs.ts';
import { SimulatedProvider } from '../../server/generation/simulated.ts';
import { TERMINAL_JOB, type JobStatus } from '../../server/generation/status.ts';
import type { GenerationKind } from '../../server/generation/types.ts';
import { seedWorkspace, testConfig } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { fmt, percentile, round, sleep, table } from './stats.ts';

const QUICK = process.argv.includes('--quick');
const CFG = QUICK
  ? { mode: 'quick', jobs: 100, tasks: 5, quietJobs: 10, settleTimeoutMs: 60_000 }
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
const KINDS: GenerationKind[] = ['IMAGE', 'VIDEO', 'AUDIO', 'MODEL_3D'];
const RANK: Record<JobStatus, number> = { SUBMITTING: 0, UNKNOWN: 0, QUEUED: 1, RUNNING: 2, SUCCEEDED: 3, FAILED: 3, CANCELLED: 3 };

const now = () => performance.timeOrigin + performance.now();
const isFinal = (s: string) => (TERMINAL_JOB as readonly string[]).includes(s);

async function pgClient(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

/** Bare baseline: one autocommit statement that inserts a row and notifies → a LISTEN connection receives it. */
async function notifyBaseline(url: string, samples: number, concurrency: number) {
  const setup = await pgClient(url);
  await setup.query('CREATE TABLE bench_notify (id bigserial PRIMARY KEY, payload jsonb NOT NULL)');
  await setup.end();
  const listener = await pgClient(url);
  const waiting = new Map<number, (at: number) => void>();
  listener.on('notification', (m) => {
    const at = now();
    waiting.get(Number(m.payload))?.(at);
  });
  await listener.query('LISTEN bench_jobs');
  const producers = await Promise.all(Array.from({ length: concurrency }, () => pgClient(url)));
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    producers.map(async (c) => {
      for (let i = next++; i < samples; i = next++) {
        const got = new Promise<number>((r) => waiting.set(i, r));
        const t0 = now();
        await c.query(`WITH i AS (INSERT INTO bench_notify (payload) VALUES ($1) RETURNING id) SELECT pg_notify('bench_jobs', $2) FROM i`, [
          JSON.stringify({ i, t: t0 }),
          String(i),
        ]);
        latencies.push((await got) - t0);
        waiting.delete(i);
      }
    }),
  );
  await Promise.all([...producers, listener].map((c) => c.end()));
  return latencies;
}

async function main() {
  const started = performance.now();
  const db = await createTestDatabase('bench_jobs');
  const filesDir = mkdtempSync(join(tmpdir(), 'atelier-bench-jobs-'));
  const provider = new SimulatedProvider({ filesDir, ...SIM });
  // Registered before the app's listener: the timestamp is taken as the provider emits.
  const finalEmittedAt = new Map<string, number>();
  provider.onUpdate((u) => {
    if (isFinal(u.status) && !finalEmittedAt.has(u.upstreamJobId)) finalEmittedAt.set(u.upstreamJobId, now());
  });
  const app = await createApp(testConfig(), db.url, { provider });
  const { prisma, hub } = app.deps;
  const jobs = app.deps.jobs;
  const violations: string[] = [];
  let pgVersion = '';
  try {
    const v = await prisma.$queryRawUnsafe<{ v: string }[]>(`SELECT current_setting('server_version') AS v`);
    pgVersion = `PostgreSQL ${v[0]!.v}`;
    process.stderr.write(`bench:jobs (${CFG.mode}) on ${pgVersion}\n`);
    const ws = await seedWorkspace(app, 'BenchJobs');
    const tasks = [];
    for (let w = 0; w < CFG.tasks; w++) tasks.push(await prisma.task.create({ data: { workspaceId: ws.workspaceId, title: `bench jobs ${w}` } }));

    // A subscriber on the workspace through the app's event hub (what the subscriptions read).
    const receivedAt = new Map<string, number>();
    const abort = new AbortController();
    const subscriber = (async () => {
      for await (const e of hub.workspaceStream(ws.workspaceId, 0, abort.signal)) {
        if (e.type !== 'JOB_SUCCEEDED' && e.type !== 'JOB_FAILED') continue;
        const jobId = (e.payload as { jobId?: string } | null)?.jobId;
        if (jobId && !receivedAt.has(jobId)) receivedAt.set(jobId, now());
      }
    })();

    // Reconciliation by polling, as the worker's tick does it.
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
        await sleep(RECONCILE_EVERY_MS);
      }
    })();

    // Submissions: `tasks` concurrent loops, each job submitted twice at once with one key.
    let submitErrors = 0;
    let mismatchedPairs = 0;
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      tasks.map(async (task, w) => {
        for (let i = next++; i < CFG.jobs; i = next++) {
          const req = {
            workspaceId: ws.workspaceId,
            taskId: task.id,
            kind: KINDS[i % KINDS.length]!,
            prompt: `bench job ${i}`,
            params: {},
            idempotencyKey: `bench:${w}:${i}`,
          };
          // A failed attempt is retried with the same key, as the runtime retries an IDEMPOTENT call on resume.
          for (let attempt = 1; attempt <= 3; attempt++) {
            const [a, b] = await Promise.allSettled([submitGeneration(jobs, req), submitGeneration(jobs, req)]);
            if (a.status === 'fulfilled' && b.status === 'fulfilled') {
              if (a.value.id !== b.value.id) mismatchedPairs++;
              break;
            }
            submitErrors++;
            if (submitErrors <= 3) console.error(`  submit attempt failed: ${String((a.status === 'rejected' ? a.reason : (b as PromiseRejectedResult).reason)).split('\n')[0]}`);
          }
        }
      }),
    );
    const submitS = (performance.now() - t0) / 1000;
    process.stderr.write(`  submitted ${CFG.jobs} jobs ×2 in ${submitS.toFixed(1)} s\n`);

    // Until every job is final in the database (callbacks + polling), then let late callbacks land.
    const deadline = performance.now() + CFG.settleTimeoutMs;
    let open = Infinity;
    while (performance.now() < deadline) {
      open = await prisma.generationJob.count({ where: { workspaceId: ws.workspaceId, status: { notIn: ['SUCCEEDED', 'FAILED', 'CANCELLED'] } } });
      if (open === 0) break;
      await sleep(200);
    }
    const settleS = (performance.now() - t0) / 1000;
    await sleep(1000); // stale (out-of-order) and duplicate callbacks arrive up to latency + 20 ms
    reconciling = false;
    await reconciler;
    await reconcileJobs(jobs, { silentMs: 0 }); // the final reconciliation
    await sleep(300);
    process.stderr.write(`  settled in ${settleS.toFixed(1)} s (${open} open)\n`);

    // ---- invariants, from the database
    const upstreamSubmissions = provider.submits; // before the quiet phase below adds its own
    const rows = await prisma.generationJob.findMany({ where: { workspaceId: ws.workspaceId } });
    const orders = rows.length;
    const distinctKeys = new Set(rows.map((r) => r.idempotencyKey)).size;
    const one = async (sql: string) => Number((await prisma.$queryRawUnsafe<{ n: bigint }[]>(sql, ws.workspaceId))[0]!.n);
    const duplicateLedgerRows = await one(
      `SELECT count(*) AS n FROM (SELECT job_id, kind FROM ledger_entries WHERE workspace_id = $1::uuid GROUP BY 1, 2 HAVING count(*) > 1) d`,
    );
    const chargedAndReleased = await one(
      `SELECT count(*) AS n FROM (SELECT job_id FROM ledger_entries WHERE workspace_id = $1::uuid GROUP BY 1
        HAVING bool_or(kind = 'CHARGE') AND bool_or(kind = 'RELEASE')) d`,
    );
    const wrongSettlements = await one(
      `SELECT count(*) AS n FROM generation_jobs j WHERE j.workspace_id = $1::uuid AND (
         (j.status = 'SUCCEEDED') <> EXISTS (SELECT 1 FROM ledger_entries l WHERE l.job_id = j.id AND l.kind = 'CHARGE')
         OR (j.status IN ('FAILED', 'CANCELLED')) <> EXISTS (SELECT 1 FROM ledger_entries l WHERE l.job_id = j.id AND l.kind = 'RELEASE'))`,
    );
    const unbalanced = await one(
      `SELECT count(*) AS n FROM (SELECT job_id FROM ledger_entries WHERE workspace_id = $1::uuid GROUP BY 1
        HAVING sum(amount_cents) FILTER (WHERE kind = 'HOLD') IS DISTINCT FROM
               coalesce(sum(amount_cents) FILTER (WHERE kind IN ('CHARGE', 'RELEASE')), 0)) d`,
    );
    const holdsMissing = await one(
      `SELECT count(*) AS n FROM generation_jobs j WHERE j.workspace_id = $1::uuid AND j.quote_cents > 0
          AND NOT EXISTS (SELECT 1 FROM ledger_entries l WHERE l.job_id = j.id AND l.kind = 'HOLD')`,
    );
    const totals = await prisma.$queryRawUnsafe<{ kind: string; cents: bigint }[]>(
      `SELECT kind::text, sum(amount_cents) AS cents FROM ledger_entries WHERE workspace_id = $1::uuid GROUP BY 1`,
      ws.workspaceId,
    );
    const cents = (k: string) => Number(totals.find((t) => t.kind === k)?.cents ?? 0);

    // Status regressions: per job, its events in the task log (seq order) never go back in rank,
    // nothing follows a final event, and progress never decreases.
    const events = await prisma.taskEvent.findMany({
      where: { workspaceId: ws.workspaceId, type: { startsWith: 'JOB_' } },
      orderBy: [{ taskId: 'asc' }, { seq: 'asc' }],
      select: { type: true, payload: true },
    });
    const perJob = new Map<string, { rank: number; progress: number; final: boolean }>();
    let statusRegressions = 0;
    let progressRegressions = 0;
    let finalEvents = 0;
    const unknownSubmitted = new Set<string>();
    for (const e of events) {
      const p = e.payload as { jobId: string; status: JobStatus; progress?: number };
      if (e.type === 'JOB_SUBMISSION_UNKNOWN') unknownSubmitted.add(p.jobId);
      const s = perJob.get(p.jobId) ?? { rank: -1, progress: 0, final: false };
      if (s.final || RANK[p.status] < s.rank) statusRegressions++;
      if (typeof p.progress === 'number' && p.progress < s.progress) progressRegressions++;
      if (isFinal(p.status)) finalEvents++;
      perJob.set(p.jobId, { rank: Math.max(s.rank, RANK[p.status]), progress: Math.max(s.progress, p.progress ?? 0), final: s.final || isFinal(p.status) });
    }

    // Lost completions: the provider says final, the database does not (or disagrees).
    let lostCompletions = 0;
    let statusMismatches = 0;
    let succeeded = 0;
    let failed = 0;
    for (const r of rows) {
      if (r.status === 'SUCCEEDED') succeeded++;
      if (r.status === 'FAILED') failed++;
      if (!r.upstreamJobId) {
        lostCompletions++; // never attached to its upstream job
        continue;
      }
      const up = await provider.status(r.upstreamJobId);
      if (!isFinal(up.status)) continue;
      if (!isFinal(r.status)) lostCompletions++;
      else if (up.status !== r.status) statusMismatches++;
    }

    // Latency: provider's final callback → the JOB_SUCCEEDED/JOB_FAILED event at the subscriber.
    // Only for completions delivered by that callback: a missing callback (recovered by polling) or
    // a callback for a job whose submission was unclear (not yet attached) has no such path.
    const callbackLatencies = (list: typeof rows) => {
      const xs: number[] = [];
      let excluded = 0;
      for (const r of list) {
        const emitted = r.upstreamJobId ? finalEmittedAt.get(r.upstreamJobId) : undefined;
        const recv = receivedAt.get(r.id);
        if (emitted === undefined || unknownSubmitted.has(r.id) || recv === undefined || recv < emitted) excluded++;
        else xs.push(recv - emitted);
      }
      return { xs, excluded };
    };
    await sleep(200);
    const { xs: latencies, excluded: viaPolling } = callbackLatencies(rows);

    // The same path without the load: jobs submitted one at a time, nothing else running.
    const quietRows: typeof rows = [];
    for (let i = 0; i < CFG.quietJobs; i++) {
      const j = await submitGeneration(jobs, { workspaceId: ws.workspaceId, taskId: tasks[0]!.id, kind: 'IMAGE', prompt: `quiet ${i}`, params: {}, idempotencyKey: `quiet:${i}` });
      const until = performance.now() + 10_000;
      while (!receivedAt.has(j.id) && performance.now() < until) await sleep(20);
      quietRows.push(await prisma.generationJob.findUniqueOrThrow({ where: { id: j.id } }));
    }
    await reconcileJobs(jobs, { silentMs: 0 });
    const { xs: quiet } = callbackLatencies(quietRows);
    abort.abort();
    await subscriber;
    const notDelivered = rows.filter((r) => isFinal(r.status) && !receivedAt.has(r.id)).length;
    const baseline = await notifyBaseline(db.url, Math.max(100, latencies.length), CFG.tasks);

    const check = (name: string, ok: boolean, detail: string) => {
      if (!ok) violations.push(`${name}: ${detail}`);
    };
    check('orders = distinct keys', orders === CFG.jobs && distinctKeys === CFG.jobs && mismatchedPairs === 0, `${orders} orders, ${distinctKeys} keys, ${mismatchedPairs} pairs got different jobs`);
    check('one upstream submission per key', upstreamSubmissions === CFG.jobs, `${upstreamSubmissions} upstream submissions`);
    check('double charges', duplicateLedgerRows + chargedAndReleased === 0, `${duplicateLedgerRows} duplicate (job, kind) rows, ${chargedAndReleased} jobs charged and released`);
    check('settlement matches status', wrongSettlements === 0, `${wrongSettlements} jobs`);
    check('ledger balance', unbalanced === 0 && holdsMissing === 0, `${unbalanced} orders with hold ≠ charge + release, ${holdsMissing} without a hold`);
    check('status regressions', statusRegressions === 0 && progressRegressions === 0, `${statusRegressions} status, ${progressRegressions} progress`);
    check('lost completions', lostCompletions === 0 && open === 0, `${lostCompletions} lost, ${open} still open at the deadline`);
    check('final status agrees with the provider', statusMismatches === 0, `${statusMismatches} jobs`);
    check('one final event per job', finalEvents === orders, `${finalEvents} final events for ${orders} jobs`);
    check('every final event reached the subscriber', notDelivered === 0, `${notDelivered} not received`);

    const p = (xs: number[], q: number) => percentile(xs, q);
    const ratio = (q: number) => p(latencies, q) / p(baseline, q);
    const totalS = (performance.now() - started) / 1000;
    const out: string[] = [];
    out.push('');
    out.push(`Atelier generation jobs benchmark (${CFG.mode}) — ${pgVersion}, node ${process.version}`);
    out.push(
      `  ${CFG.jobs} simulated jobs over ${CFG.tasks} concurrent tasks, each submitted twice at once with one key; provider: ` +
        `failures ${SIM.failureRate}, unclear submissions ${SIM.unknownSubmitRate}, duplicate ${SIM.duplicateCallbackRate}, ` +
        `out-of-order ${SIM.outOfOrderRate}, missing final ${SIM.missingCallbackRate}; reconcile every ${RECONCILE_EVERY_MS} ms (silent ${SILENT_MS} ms).`,
    );
    out.push('');
    out.push(
      table(
        ['check', 'value', 'expected'],
        [
          ['submissions (calls)', String(CFG.jobs * 2), ''],
          ['submission attempts that errored (retried)', String(submitErrors), ''],
          ['orders (job rows)', String(orders), `= distinct keys (${CFG.jobs})`],
          ['upstream submissions', String(upstreamSubmissions), String(CFG.jobs)],
          ['succeeded / failed', `${succeeded} / ${failed}`, ''],
          ['double charges', String(duplicateLedgerRows + chargedAndReleased), '0'],
          ['settlement ≠ status', String(wrongSettlements), '0'],
          ['status regressions (events)', String(statusRegressions), '0'],
          ['progress regressions (events)', String(progressRegressions), '0'],
          ['lost completions', String(lostCompletions), '0'],
          ['final status ≠ provider', String(statusMismatches), '0'],
          ['orders with hold ≠ charge + release', String(unbalanced), '0'],
          ['ledger held / charged / released ¢', `${cents('HOLD')} / ${cents('CHARGE')} / ${cents('RELEASE')}`, 'held = charged + released'],
          ['reconcile runs / polled / unclear resolved', `${reconcileRuns} / ${polled} / ${resolvedUnknown}`, ''],
        ],
      ),
    );
    out.push('');
    out.push(`  latency: provider emits the final callback → JOB_SUCCEEDED/JOB_FAILED reaches a workspace subscriber (app event hub)`);
    out.push(`  (the callback's transaction shares the app's connection pool with the submissions: under load it queues for one)`);
    out.push(`  baseline: one autocommit INSERT … + pg_notify from ${CFG.tasks} connections → a LISTEN connection receives it`);
    out.push(
      table(
        ['path', 'samples', 'p50 ms', 'p99 ms', 'max ms'],
        [
          ['callback → subscriber, under load', String(latencies.length), fmt(p(latencies, 50), 2), fmt(p(latencies, 99), 2), fmt(Math.max(...latencies), 2)],
          ['INSERT+NOTIFY baseline', String(baseline.length), fmt(p(baseline, 50), 2), fmt(p(baseline, 99), 2), fmt(Math.max(...baseline), 2)],
          ['ratio (under load / baseline)', '', fmt(ratio(50), 1), fmt(ratio(99), 1), ''],
          ['callback → subscriber, one job at a time', String(quiet.length), fmt(p(quiet, 50), 2), fmt(p(quiet, 99), 2), fmt(Math.max(...quiet), 2)],
          ['ratio (one at a time / baseline)', '', fmt(p(quiet, 50) / p(baseline, 50), 1), fmt(p(quiet, 99) / p(baseline, 99), 1), ''],
        ],
      ),
    );
    out.push(`  ${viaPolling} completions without a deliverable final callback (missing, unclear submission, or polled first) are not in the latency sample.`);
    out.push(`  submit phase ${submitS.toFixed(1)} s, all final after ${settleS.toFixed(1)} s; total ${totalS.toFixed(1)} s`);
    out.push('');
    out.push(violations.length ? `INVARIANTS VIOLATED:\n${violations.map((v) => `  ✖ ${v}`).join('\n')}` : 'all invariants hold');
    console.log(out.join('\n'));
    console.log(
      `BENCH_RESULT ${JSON.stringify({
        mode: CFG.mode,
        postgres: pgVersion,
        node: process.version,
        jobs: CFG.jobs,
        tasks: CFG.tasks,
        submissions: CFG.jobs * 2,
        submitErrors,
        orders,
        distinctKeys,
        upstreamSubmissions,
        succeeded,
        failed,
        doubleCharges: duplicateLedgerRows + chargedAndReleased,
        wrongSettlements,
        statusRegressions,
        progressRegressions,
        lostCompletions,
        statusMismatches,
        unbalancedOrders: unbalanced,
        ledger: { heldCents: cents('HOLD'), chargedCents: cents('CHARGE'), releasedCents: cents('RELEASE') },
        reconcile: { runs: reconcileRuns, polled, resolvedUnknown },
        latency: { samples: latencies.length, p50: round(p(latencies, 50), 3), p99: round(p(latencies, 99), 3) },
        baseline: { samples: baseline.length, p50: round(p(baseline, 50), 3), p99: round(p(baseline, 99), 3) },
        quiet: { samples: quiet.length, p50: round(p(quiet, 50), 3), p99: round(p(quiet, 99), 3) },
        ratioP50: round(ratio(50), 2),
        ratioP99: round(ratio(99), 2),
        notInLatencySample: viaPolling,
        settleSeconds: round(settleS, 1),
        totalSeconds: round(totalS, 1),
        violations,
      })}`,
    );
  } finally {
    await app.close();
    await db.drop();
    rmSync(filesDir, { recursive: true, force: true });
  }
  return violations.length === 0;
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
