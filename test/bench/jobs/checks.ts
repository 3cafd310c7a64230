// bench:jobs's judgement, as pure functions over what the run collected from the database, the
// provider and the subscriber process (test/bench-anomaly.test.ts feeds them planted anomalies).
import { median, sequenceViolations, range1, type Gate, type Target } from '../verdict.ts';
import { percentile } from '../stats.ts';

export type JobRow = { id: string; idempotencyKey: string; status: string; upstreamJobId: string | null; quoteCents: number; providerStatus: string | null };
export type LedgerRow = { jobId: string; kind: 'HOLD' | 'CHARGE' | 'RELEASE' | string; amountCents: number };
/** The JOB_* events of the log, in (task, seq) order. */
export type JobEvent = { type: string; jobId: string; status: string; progress?: number };

export type JobsCollected = {
  /** Keys submitted (each twice at once): one order and one upstream submission each. */
  expectedJobs: number;
  upstreamSubmissions: number;
  /** Pairs of concurrent submissions with one key that got different jobs. */
  mismatchedPairs: number;
  /** Jobs not final at the settle deadline. */
  openAtDeadline: number;
  jobs: JobRow[];
  ledger: LedgerRow[];
  events: JobEvent[];
  /** Positions the subscriber process received, in arrival order, and the workspace's last position. */
  streamPositions: number[];
  lastPosition: number;
  /** Job ids of the final job events the subscriber received, in arrival order. */
  deliveredFinals: string[];
};

const RANK: Record<string, number> = { SUBMITTING: 0, UNKNOWN: 0, QUEUED: 1, RUNNING: 2, SUCCEEDED: 3, FAILED: 3, CANCELLED: 3 };
const FINAL = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);

export function checkJobs(c: JobsCollected): string[] {
  const v: string[] = [];
  const check = (name: string, ok: boolean, detail: string) => void (ok || v.push(`${name}: ${detail}`));
  const keys = new Set(c.jobs.map((j) => j.idempotencyKey));
  check('orders = distinct keys', c.jobs.length === c.expectedJobs && keys.size === c.expectedJobs && c.mismatchedPairs === 0,
    `${c.jobs.length} orders, ${keys.size} keys for ${c.expectedJobs}, ${c.mismatchedPairs} pairs got different jobs`);
  check('one upstream submission per key', c.upstreamSubmissions === c.expectedJobs, `${c.upstreamSubmissions} upstream submissions for ${c.expectedJobs} keys`);

  const byJob = new Map<string, LedgerRow[]>();
  for (const l of c.ledger) (byJob.get(l.jobId) ?? byJob.set(l.jobId, []).get(l.jobId)!).push(l);
  let dupRows = 0;
  let chargedAndReleased = 0;
  let unbalanced = 0;
  let wrongSettlement = 0;
  let holdsMissing = 0;
  for (const j of c.jobs) {
    const rows = byJob.get(j.id) ?? [];
    const n = (k: string) => rows.filter((r) => r.kind === k).length;
    const sum = (...ks: string[]) => rows.filter((r) => ks.includes(r.kind)).reduce((s, r) => s + r.amountCents, 0);
    for (const k of ['HOLD', 'CHARGE', 'RELEASE']) if (n(k) > 1) dupRows++;
    if (n('CHARGE') && n('RELEASE')) chargedAndReleased++;
    if (j.quoteCents > 0 && !n('HOLD')) holdsMissing++;
    if (n('HOLD') && sum('HOLD') !== sum('CHARGE', 'RELEASE')) unbalanced++;
    if ((j.status === 'SUCCEEDED') !== n('CHARGE') > 0 || (j.status === 'FAILED' || j.status === 'CANCELLED') !== n('RELEASE') > 0) wrongSettlement++;
  }
  const orphanLedger = [...byJob.keys()].filter((id) => !c.jobs.some((j) => j.id === id)).length;
  check('double charges', dupRows + chargedAndReleased === 0, `${dupRows} duplicated (job, kind) ledger rows, ${chargedAndReleased} jobs charged and released`);
  check('settlement matches status', wrongSettlement === 0, `${wrongSettlement} jobs`);
  check('ledger balance (hold = charge + release)', unbalanced === 0 && holdsMissing === 0 && orphanLedger === 0,
    `${unbalanced} orders unbalanced, ${holdsMissing} without a hold, ${orphanLedger} ledger rows of unknown jobs`);

  const perJob = new Map<string, { rank: number; progress: number; final: boolean }>();
  let statusRegressions = 0;
  let progressRegressions = 0;
  const finalEvents = new Map<string, number>();
  for (const e of c.events) {
    const s = perJob.get(e.jobId) ?? { rank: -1, progress: 0, final: false };
    if (s.final || (RANK[e.status] ?? 0) < s.rank) statusRegressions++;
    if (typeof e.progress === 'number' && e.progress < s.progress) progressRegressions++;
    if (FINAL.has(e.status)) finalEvents.set(e.jobId, (finalEvents.get(e.jobId) ?? 0) + 1);
    perJob.set(e.jobId, { rank: Math.max(s.rank, RANK[e.status] ?? 0), progress: Math.max(s.progress, e.progress ?? 0), final: s.final || FINAL.has(e.status) });
  }
  check('status regressions', statusRegressions === 0 && progressRegressions === 0, `${statusRegressions} status, ${progressRegressions} progress`);

  let lost = 0;
  let mismatched = 0;
  for (const j of c.jobs) {
    if (!j.upstreamJobId) lost++;
    else if (j.providerStatus && FINAL.has(j.providerStatus)) {
      if (!FINAL.has(j.status)) lost++;
      else if (j.providerStatus !== j.status) mismatched++;
    }
  }
  check('lost completions', lost === 0 && c.openAtDeadline === 0, `${lost} lost, ${c.openAtDeadline} still open at the deadline`);
  check('final status agrees with the provider', mismatched === 0, `${mismatched} jobs`);
  const notOne = c.jobs.filter((j) => (finalEvents.get(j.id) ?? 0) !== 1).length;
  check('one final event per job', notOne === 0, `${notOne} jobs without exactly one final event`);

  // The subscriber in the other process: the workspace's whole log, each position once, in order;
  // each job's final event once.
  v.push(...sequenceViolations('subscriber stream (positions)', c.streamPositions, range1(c.lastPosition)));
  const finals = c.jobs.filter((j) => FINAL.has(j.status)).map((j) => j.id);
  const got = new Map<string, number>();
  for (const id of c.deliveredFinals) got.set(id, (got.get(id) ?? 0) + 1);
  const missing = finals.filter((id) => !got.has(id)).length;
  const doubled = [...got.values()].filter((n) => n > 1).length;
  check('every final event reached the subscriber once', missing === 0 && doubled === 0, `${missing} not received, ${doubled} received more than once`);
  return v;
}

/**
 * Latency samples (ms), each path with its baseline taken in the same phase: during the load, and
 * one at a time alternating with single jobs afterwards.
 */
export type JobsLatency = { underLoad: number[]; baselineUnderLoad: number[]; quiet: number[]; baselineQuiet: number[] };

/**
 * Ceilings on callback→subscriber ÷ INSERT+NOTIFY (p50; both received in the subscriber process).
 * Under load the callback's transaction queues for one of the app's pooled connections behind the
 * submissions (the baseline has a connection of its own), so that ratio swings with the load and
 * its ceiling only catches a collapse; one job at a time is the figure that tracks the path itself.
 */
export const LOAD_P50_CEILING = 400;
export const QUIET_P50_CEILING = 40;

export function jobsFigures(l: JobsLatency) {
  const loadP50 = percentile(l.underLoad, 50);
  const baseLoadP50 = percentile(l.baselineUnderLoad, 50);
  const quietP50 = median(l.quiet);
  const baseQuietP50 = median(l.baselineQuiet);
  return {
    loadP50, loadP99: percentile(l.underLoad, 99), baseLoadP50, baseLoadP99: percentile(l.baselineUnderLoad, 99),
    quietP50, baseQuietP50, loadRatioP50: loadP50 / baseLoadP50, quietRatioP50: quietP50 / baseQuietP50,
  };
}

export function jobsGates(l: JobsLatency): Gate[] {
  const f = jobsFigures(l);
  return [
    { name: 'callback→subscriber p50 under load ÷ INSERT+NOTIFY under the same load', value: f.loadRatioP50, max: LOAD_P50_CEILING },
    { name: 'callback→subscriber p50 one job at a time ÷ INSERT+NOTIFY interleaved', value: f.quietRatioP50, max: QUIET_P50_CEILING },
  ];
}

/** What the job path aims at: a completion reaches a subscriber in another process within 100 ms p99 under the 1,000-job load. */
export function jobsTargets(l: JobsLatency): Target[] {
  const f = jobsFigures(l);
  return [
    { name: 'job completion → subscriber p99, under the load', value: f.loadP99, unit: 'ms', aim: '≤', bound: 100, baseline: `INSERT+NOTIFY under the same load p99 ${f.baseLoadP99.toFixed(1)} ms` },
    { name: 'job completion → subscriber p99, one job at a time', value: percentile(l.quiet, 99), unit: 'ms', aim: '≤', bound: 100, baseline: `INSERT+NOTIFY interleaved p99 ${percentile(l.baselineQuiet, 99).toFixed(1)} ms` },
  ];
}

export function plantJobs(c: JobsCollected, kind: string): JobsCollected {
  const x = structuredClone(c);
  const charge = x.ledger.find((l) => l.kind === 'CHARGE');
  if (kind === 'double-charge' && charge) x.ledger.push({ ...charge });
  else if (kind === 'unbalanced' && charge) charge.amountCents += 1;
  else if (kind === 'duplicate' && x.deliveredFinals.length) x.deliveredFinals.push(x.deliveredFinals[0]!);
  else if (kind === 'gap' && x.streamPositions.length > 2) x.streamPositions.splice(1, 1);
  else throw new Error(`bench:jobs cannot plant "${kind}" (double-charge, unbalanced, duplicate, gap)`);
  return x;
}
