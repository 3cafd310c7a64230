// bench:runtime's printed report and its BENCH_RESULT line.
import { fmt, mean, percentile, round, table } from '../stats.ts';
import type { Target } from '../verdict.ts';
import type { RecoveryFigures } from './analysis.ts';
import { overheadFigures } from './checks.ts';
import { CFG, LEASE_MS, PLUGIN_STEPS, QUICK, WORKER_ENV } from './config.ts';
import type { E2eResult, OverheadCase } from './overhead.ts';

const S = CFG.overheadSteps;

export function overheadLines(cases: OverheadCase[], e2e: E2eResult | undefined): string[] {
  const out: string[] = [];
  out.push(`(a) Runtime overhead per step: scripted model answering instantly, no-op IDEMPOTENT tool; ${CFG.overheadRounds} rounds per case,`);
  out.push(`    each ${CFG.overheadTasks} tasks × ${S} steps (${S - 1} × bench_noop, then complete_task; a step = one model call + its tool call)`);
  out.push(`    run by runTurn() in this process (no worker, no pg-boss), and the baseline: per step one BEGIN; INSERT one row; COMMIT`);
  out.push(`    on a raw pg connection (1, or ${CFG.concurrency} for the concurrent case), i.e. one commit and 3 statements per step.`);
  out.push(`    Rounds alternate which goes first, after a warm-up of both; ms/step are medians over rounds; ratio = runtime ÷ baseline.`);
  out.push(`    Commits and statements are counted by wrapping pg.Client#query in this process (pg-boss's pool and the baseline excluded).`);
  out.push(`    steady = time between consecutive bench_noop runs of one task (claim/completion excluded); lease 30 s, so no renewal inside.`);
  out.push('');
  out.push(
    table(
      ['case', 'steps', 'ms/step', 'base ms/step', 'ratio', 'commits/step', 'statements/step', 'steady p50/p99', 'turn ms/step', 'cpu ms/step', 'not completed'],
      cases.map((c) => {
        const f = overheadFigures(c);
        return [
          c.label, String(f.steps), fmt(f.msPerStep, 2), fmt(f.baselineMsPerStep, 2), fmt(f.ratio, 1), fmt(f.commitsPerStep, 2), fmt(f.statementsPerStep, 1),
          `${fmt(percentile(c.steadyStepMs, 50), 2)}/${fmt(percentile(c.steadyStepMs, 99), 2)}`, fmt(mean(c.turnMs) / S, 2), fmt(f.cpuMsPerStep, 1),
          String(c.rounds.reduce((n, r) => n + r.notCompleted, 0)),
        ];
      }),
    ),
  );
  out.push('');
  out.push(
    table(
      ['case', 'tx commits/step', 'with writes', 'fence-only', 'autocommit writes/step', 'autocommit reads/step', 'rollbacks', 'tx commits/task', 'sequencer commits/step'],
      cases.map((c) => {
        const { counts: k, steps } = overheadFigures(c);
        return [
          c.label, fmt(k.txCommits / steps, 2), fmt(k.txWriteCommits / steps, 2), fmt((k.txCommits - k.txWriteCommits) / steps, 2), fmt(k.autocommitWrites / steps, 2),
          fmt(k.autocommitReads / steps, 2), String(k.txRollbacks), fmt(k.txCommits / (c.tasksPerRound * c.rounds.length), 1), fmt(k.sequencerCommits / steps, 2),
        ];
      }),
    ),
  );
  if (e2e) {
    out.push('');
    out.push(
      `    End to end through pg-boss and an in-process worker (concurrency ${e2e.concurrency}): ${e2e.tasks} tasks × ${S} steps created at once,` +
        ` all done in ${fmt(e2e.wallMs, 0)} ms = ${fmt(e2e.wallMs / e2e.steps, 2)} ms/step of wall time;`,
    );
    out.push(
      `    create→TURN_STARTED p50/p99 ${fmt(percentile(e2e.createToStartMs, 50), 0)}/${fmt(percentile(e2e.createToStartMs, 99), 0)} ms,` +
        ` TURN_STARTED→COMPLETED p50 ${fmt(percentile(e2e.turnMs, 50), 0)} ms, create→COMPLETED p50/p99 ${fmt(percentile(e2e.createToCompleteMs, 50), 0)}/${fmt(percentile(e2e.createToCompleteMs, 99), 0)} ms;` +
        ` not completed: ${e2e.notCompleted} (the batch waits for free slots: ${e2e.tasks} tasks, ${e2e.concurrency} slots).`,
    );
    out.push(`    Wake-up alone (one task at a time, the worker idle): create→TURN_STARTED p50/p99 ${fmt(percentile(e2e.wakeMs, 50), 0)}/${fmt(percentile(e2e.wakeMs, 99), 0)} ms over ${e2e.wakeMs.length} tasks.`);
    if (CFG.overlapE2e) out.push(`    (quick mode: measured while (b)'s worker processes were starting, so it shares the CPU with them.)`);
  }
  return out;
}

export function recoveryLines(r: RecoveryFigures): string[] {
  const out: string[] = [];
  out.push(
    `(b) Recovery: ${r.expectedTasks} tasks (plugin: ${PLUGIN_STEPS} × slow_step of ${WORKER_ENV.PLUGIN_TOOL_MS} ms, then complete_task),` +
      ` ${CFG.inFlight} not ended at any time; worker processes (concurrency ${WORKER_ENV.ATELIER_WORKER_CONCURRENCY} each) SIGKILLed`,
  );
  out.push(`    at least ${CFG.killGapMs[0] / 1000}–${CFG.killGapMs[1] / 1000} s apart and only while another worker is ready: the ready one holding the most`);
  out.push(`    RUNNING turns is killed and a replacement started, so the interval is bounded below by a worker's start-up time.`);
  out.push(
    QUICK
      ? `    Kills stop after ${CFG.maxKills} (quick: ${CFG.initialWorkers} workers started up front) or when every task has ended.`
      : `    Kills stop after ${CFG.maxKills} or when every task has been created; the last tasks then finish without kills.`,
  );
  out.push(`    ATELIER_LEASE_MS=${LEASE_MS}, ATELIER_WATCHDOG_MS=${WORKER_ENV.ATELIER_WATCHDOG_MS}, ATELIER_STALE_QUEUED_MS=${WORKER_ENV.ATELIER_STALE_QUEUED_MS}.`);
  out.push(`    affected task = a RUNNING turn whose lease_owner has the killed pid, read just after the process exited; recovery = kill → that`);
  out.push(`    task's first TURN_STARTED {takeover: true} at a later generation of the same turn (any event: first event after the kill).`);
  out.push('');
  out.push(
    table(
      ['kill', 't s', 'pid', 'worker age s', 'other ready', 'running turns', 'affected', 'takeover p50 ms', 'max ms'],
      r.kills.map(({ kill, takeoverMs }) => [
        String(kill.n), fmt((kill.killAt - (r.kills[0]?.kill.killAt ?? kill.killAt)) / 1000, 1), String(kill.pid), fmt(kill.workerAgeMs / 1000, 1),
        String(kill.otherReadyWorkers), String(kill.runningTurnsTotal), String(kill.affected.length), fmt(percentile(takeoverMs, 50), 0),
        takeoverMs.length ? fmt(Math.max(...takeoverMs), 0) : 'n/a',
      ]),
    ),
  );
  out.push('');
  const rec = r.recovery;
  const mx = (xs: number[]) => (xs.length ? fmt(Math.max(...xs), 0) : 'n/a');
  out.push(
    table(
      ['metric', 'value'],
      [
        ['tasks (created / planned)', `${r.tasks} / ${r.expectedTasks}${r.feedStoppedEarly ? ' (STOPPED EARLY)' : ''}`],
        ['final statuses', Object.entries(r.statuses).map(([k, v]) => `${k} ${v}`).join(', ')],
        ['load duration', `${fmt(r.loadMs / 1000, 1)} s (${fmt((r.tasks / r.loadMs) * 1000, 1)} tasks/s)`],
        ['task create → ended p50 / p99 / max', `${fmt(percentile(r.taskMs, 50), 0)} / ${fmt(percentile(r.taskMs, 99), 0)} / ${mx(r.taskMs)} ms`],
        ['task create → first TURN_STARTED p50 / p99', `${fmt(percentile(r.pickupMs, 50), 0)} / ${fmt(percentile(r.pickupMs, 99), 0)} ms`],
        ['kills', `${r.killCount} (interval p50 ${fmt(percentile(r.killGaps, 50) / 1000, 1)} s)`],
        ['worker processes started / never ready', `${r.workersStarted} / ${r.neverReady}`],
        ['worker start → ready p50 / max', `${fmt(r.workerStartMs.p50 / 1000, 1)} / ${fmt(r.workerStartMs.max / 1000, 1)} s`],
        ['time with no ready worker during the load', `${fmt(r.noWorkerMs / 1000, 1)} s`],
        ['affected tasks (sum over kills)', String(r.affectedTotal)],
        ['kill → takeover p50 / p99 / max', `${fmt(percentile(rec.toTakeover, 50), 0)} / ${fmt(percentile(rec.toTakeover, 99), 0)} / ${mx(rec.toTakeover)} ms  (lease ${LEASE_MS} ms)`],
        ['kill → first event of the task p50 / p99', `${fmt(percentile(rec.toAnyEvent, 50), 0)} / ${fmt(percentile(rec.toAnyEvent, 99), 0)} ms`],
        ['lease left at the kill p50', `${fmt(percentile(rec.leaseLeft, 50), 0)} ms`],
        ['lease expiry → takeover p50 / p99', `${fmt(percentile(rec.afterExpiry, 50), 0)} / ${fmt(percentile(rec.afterExpiry, 99), 0)} ms (watchdog + pg-boss pick-up + claim)`],
        ['takeovers recorded (all tasks) / by affected tasks', `${r.takeovers} / ${rec.toTakeover.length}`],
        ['superseded turns logged by workers', String(r.logs.superseded)],
        ['turns whose first wake-up was lost (re-sent as stale QUEUED)', String(r.wakeups.staleResent)],
        ['takeover wake-ups sent / distinct (turn, generation)', `${r.wakeups.takeoverJobs} / ${r.wakeups.takeoverKeys}`],
        ['effects replayed under their key (allowed: IDEMPOTENT)', String(r.replayedEffects)],
        ['worker log errors', [...r.logs.errors].map(([m, n]) => `${m} ×${n}`).join('; ') || '0'],
        ['worker log warnings', [...r.logs.warns].map(([m, n]) => `${m} ×${n}`).join('; ') || '0'],
      ],
    ),
  );
  for (const s of r.logs.samples) out.push(`   LOG ${s}`);
  out.push('   slowest tasks (ms after creation; MODEL_CALL events omitted):');
  for (const s of r.slowest) out.push(`     ${s}`);
  return out;
}

/** What the runtime aims at, each figure beside the baseline it is measured against in the same run. */
export function runtimeTargets(cases: OverheadCase[], e2e: E2eResult | undefined, r: RecoveryFigures | undefined, defaultLeaseMs: number, idleStarts: number[]): Target[] {
  const out: Target[] = [];
  const seq = cases.find((c) => c.concurrency === 1) ?? cases[0];
  if (seq) {
    const f = overheadFigures(seq);
    const base = `bare commit ${fmt(f.baselineMsPerStep, 2)} ms`;
    out.push({ name: 'commits per step', value: f.commitsPerStep, aim: '≤', bound: 3, baseline: 'instant model, no-op tool' });
    out.push({ name: 'SQL statements per step', value: f.statementsPerStep, aim: '≤', bound: 12, baseline: 'instant model, no-op tool' });
    out.push({ name: 'Node CPU per step', value: f.cpuMsPerStep, unit: 'ms', aim: '≤', bound: 5 });
    out.push({ name: 'wall time per step ÷ the bare commits it needs', value: f.msPerStep / (f.baselineMsPerStep * Math.max(1, f.commitsPerStep)), unit: '×', aim: '≤', bound: 2, baseline: `${fmt(f.msPerStep, 2)} ms/step vs ${fmt(f.commitsPerStep, 1)} × ${base}` });
  }
  if (e2e) {
    out.push({ name: 'create → first TURN_STARTED p50, one in-process worker with a free slot', value: percentile(e2e.wakeMs, 50), unit: 'ms', aim: '≤', bound: 50, baseline: 'pg-boss with a NOTIFY wake-up 5–10 ms' });
    out.push({ name: 'create → first TURN_STARTED p99, one in-process worker with a free slot', value: percentile(e2e.wakeMs, 99), unit: 'ms', aim: '≤', bound: 250 });
  }
  if (r) {
    out.push({ name: 'create → first TURN_STARTED p50, under the recovery load', value: percentile(r.pickupMs, 50), unit: 'ms', aim: '≤', bound: 50 });
    out.push({ name: 'create → first TURN_STARTED p99, under the recovery load', value: percentile(r.pickupMs, 99), unit: 'ms', aim: '≤', bound: 250 });
    out.push({ name: 'wake-ups that waited for the stale sweep', value: r.wakeups.staleResent, aim: '≤', bound: 0 });
    out.push({ name: 'SIGKILL → first event of the taken-over task p99', value: percentile(r.recovery.toAnyEvent, 99), unit: 'ms', aim: '≤', bound: LEASE_MS + 1000, baseline: `lease ${LEASE_MS} ms + 1 s` });
    out.push({ name: 'worker start → ready p50, under the recovery load (compiled)', value: r.workerStartMs.p50, unit: 'ms', aim: '≤', bound: 2000 });
  }
  out.push({ name: 'worker start → ready p50, idle machine (compiled)', value: percentile(idleStarts, 50), unit: 'ms', aim: '≤', bound: 2000 });
  out.push({ name: 'default lease', value: defaultLeaseMs, unit: 'ms', aim: '≤', bound: 5000 });
  return out;
}

export function resultJson(cases: OverheadCase[], e2e: E2eResult | undefined, r: RecoveryFigures | undefined) {
  return {
    overhead: {
      stepsPerTask: S,
      rounds: CFG.overheadRounds,
      cases: cases.map((c) => {
        const f = overheadFigures(c);
        return {
          case: c.label, concurrency: c.concurrency, steps: f.steps, msPerStep: round(f.msPerStep, 3), baselineMsPerStep: round(f.baselineMsPerStep, 3), ratio: round(f.ratio, 2),
          commitsPerStep: round(f.commitsPerStep, 3), statementsPerStep: round(f.statementsPerStep, 2), sql: f.counts,
          steadyStepP50: round(percentile(c.steadyStepMs, 50), 3), cpuMsPerStep: round(f.cpuMsPerStep, 2),
        };
      }),
      e2e: e2e && { tasks: e2e.tasks, wallMs: round(e2e.wallMs, 0), msPerStep: round(e2e.wallMs / e2e.steps, 3), createToCompleteP50: round(percentile(e2e.createToCompleteMs, 50), 0), notCompleted: e2e.notCompleted },
    },
    recovery: r && {
      tasks: r.tasks, expectedTasks: r.expectedTasks, statuses: r.statuses, loadMs: r.loadMs, kills: r.killCount, affected: r.affectedTotal, leaseMs: LEASE_MS,
      killToTakeoverP50: round(percentile(r.recovery.toTakeover, 50), 0), killToTakeoverP99: round(percentile(r.recovery.toTakeover, 99), 0),
      leaseExpiryToTakeoverP50: round(percentile(r.recovery.afterExpiry, 50), 0), takeovers: r.takeovers, replayedEffects: r.replayedEffects,
      workersStarted: r.workersStarted, workerStartP50Ms: round(r.workerStartMs.p50, 0), noWorkerMs: r.noWorkerMs,
      workerLogErrors: Object.fromEntries(r.logs.errors),
    },
  };
}
