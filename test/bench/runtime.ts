// Durable-runtime benchmark:
//   (a) the runtime's cost per step against a fixed baseline of one commit per step, interleaved
//       with it, with the commits and statements it makes per step (./runtime/overhead.ts);
//   (b) recovery when worker processes are SIGKILLed at random moments: exactly-once effects, one
//       terminal state per task, a gap-free log, time from a kill to the takeover of each affected
//       task beside the lease (./runtime/recovery.ts, ./runtime/analysis.ts).
//
//   npm run bench:runtime                    full run (~4 min)
//   npm run bench:runtime -- --quick         smoke run (~1 min)
//
// Prints tables, then the verdict and one line `BENCH_RESULT {json}`. Exits 1 when an invariant is
// violated (a task not completed, a duplicated or missing effect, a gap, two terminal states, a task
// never taken over, recovery not exercised) or a gate fails (./runtime/checks.ts).
import { performance } from 'node:perf_hooks';
import { scriptedProvider } from '../../server/runtime/models/provider.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { analyzeRecovery, type RecoveryFigures } from './runtime/analysis.ts';
import { checkOverhead, checkRecovery, plantDoubledCommits, plantRecovery, runtimeGates } from './runtime/checks.ts';
import { CFG, PLUGIN_STEPS, ROOT, pgClient, progress } from './runtime/config.ts';
import { ensureServerBuild } from '../../server/build.mjs';
import { benchOverhead, instantModel, noop, runE2e, type E2eResult, type OverheadCase } from './runtime/overhead.ts';
import { collectRecovery, runRecoveryLoad } from './runtime/recovery.ts';
import { overheadLines, recoveryLines, resultJson, runtimeTargets } from './runtime/report.ts';
import { loadConfig } from '../../server/config.ts';
import { installSqlCounter } from './runtime/sql-counter.ts';
import { runScaleout, scaleoutLines, type ScaleoutResult } from './runtime/scaleout.ts';
import { idleWorkerStarts, killAllChildren, startPool, type Pool } from './runtime/workers.ts';
import { round } from './stats.ts';
import { plantRequested, targetLines, verdict } from './verdict.ts';

async function main(): Promise<number> {
  const started = performance.now();
  // Worker processes run the compiled server, as npm start does (built here when stale).
  await ensureServerBuild(ROOT);
  installSqlCounter();
  const t = await startTestApp(
    'benchrt',
    {
      rateLimitPerMinute: 10_000_000,
      runtime: { leaseMs: 30_000, watchdogMs: 1000, staleQueuedMs: 30_000, workerConcurrency: CFG.concurrency, maxStepsPerTurn: 50, maxTurnsPerTask: 25, plugin: undefined },
    },
    { models: scriptedProvider(instantModel), tools: [noop] },
  );
  let tb: TestApp | undefined;
  let pgVersion = '';
  let cases: OverheadCase[] = [];
  let e2e: E2eResult | undefined;
  let figures: RecoveryFigures | undefined;
  let violations: string[] = [];
  let idleStarts: number[] = [];
  let scaleout: ScaleoutResult | undefined;
  const planted = plantRequested();
  try {
    const c = await pgClient(t.dbUrl);
    const v = await c.query<{ v: string; f: string; s: string }>(
      "SELECT current_setting('server_version') AS v, current_setting('fsync') AS f, current_setting('synchronous_commit') AS s",
    );
    pgVersion = `PostgreSQL ${v.rows[0]!.v} (fsync=${v.rows[0]!.f}, synchronous_commit=${v.rows[0]!.s})`;
    await c.end();
    process.stderr.write(`bench:runtime (${CFG.mode}) on ${pgVersion}\n`);
    // Worker start-up alone, before any load: spawn → ready, one process at a time.
    idleStarts = await idleWorkerStarts(t.dbUrl, CFG.mode === 'quick' ? 2 : 5);
    progress(`idle worker starts: ${idleStarts.map((x) => `${x} ms`).join(', ')}`);
    cases = await benchOverhead(t);
    // (b) runs on a database of its own. Its worker processes need seconds to start: in quick mode
    // they start while the end-to-end case of (a) runs (its figures then share the CPU with them).
    let pool: Pool;
    if (CFG.overlapE2e) {
      tb = await startTestApp('benchrec');
      pool = await startPool(tb);
      e2e = await runE2e(t, CFG.e2eTasks, CFG.concurrency);
    } else {
      e2e = await runE2e(t, CFG.e2eTasks, CFG.concurrency);
      tb = await startTestApp('benchrec');
      pool = await startPool(tb);
    }
    progress('end-to-end done');
    const load = await runRecoveryLoad(tb, pool);
    let collected = await collectRecovery(tb, load);
    if (planted === 'doubled-commits') cases = plantDoubledCommits(cases);
    else if (planted) collected = plantRecovery(collected, planted);
    figures = analyzeRecovery(load, collected);
    violations = [...checkOverhead(cases, e2e), ...checkRecovery(collected, PLUGIN_STEPS)];
    // Throughput with 1, 2 and 4 worker processes on one database (full runs only: ~2 min).
    if (CFG.mode === 'full') {
      progress('scale-out: 1, 2, 4 worker processes');
      scaleout = await runScaleout();
    }
  } finally {
    killAllChildren();
    await t.close();
    await tb?.close();
  }
  const totalS = (performance.now() - started) / 1000;
  const out: string[] = ['', `Atelier durable runtime benchmark (${CFG.mode}) — ${pgVersion}, node ${process.version}`, ''];
  out.push(...overheadLines(cases, e2e), '');
  if (figures) out.push(...recoveryLines(figures), '');
  out.push(`(c) Worker start-up on an idle machine (compiled server, one process at a time, spawn → "worker running"): ${idleStarts.map((x) => `${x} ms`).join(', ') || 'n/a'}`, '');
  if (scaleout) out.push(...scaleoutLines(scaleout), '');
  out.push(`total ${totalS.toFixed(1)} s`);
  console.log(out.join('\n'));
  const targets = runtimeTargets(cases, e2e, figures, loadConfig({}).runtime.leaseMs, idleStarts);
  console.log(targetLines('bench:runtime', targets).join('\n'));
  const gates = runtimeGates(cases);
  const code = verdict('bench:runtime', violations, gates, planted);
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      mode: CFG.mode, postgres: pgVersion, node: process.version, totalSeconds: round(totalS, 1),
      ...resultJson(cases, e2e, figures),
      idleWorkerStartsMs: idleStarts,
      scaleout: scaleout?.rows.map((r) => ({ workers: r.workers, tasksPerS: round(r.tasksPerS, 2), stepsPerS: round(r.stepsPerS, 1), ratio: round(r.ratio, 2) })),
      targets: targets.map((x) => ({ ...x, value: round(x.value, 3) })),
      gates: gates.map((g) => ({ ...g, value: round(g.value, 3) })),
      violations,
    })}`,
  );
  return code;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    killAllChildren();
    process.exit(1);
  },
);
