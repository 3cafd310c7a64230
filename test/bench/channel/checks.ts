// bench:channel's judgement, as pure functions over what the run collected (test/bench-anomaly.test.ts
// feeds them planted anomalies). Invariants: no append error; the event log is gap-free and without
// duplicates per task and per workspace; every subscriber, of the app and of the baseline relay,
// received every event exactly once and in order. Gates: append throughput against bare INSERTs
// (floors) and publish→receive latency against the relay (ceilings on the ratio of medians).
import { median, sequenceViolations, range1, type Gate } from '../verdict.ts';
import { scaleFigures, scaleViolations, type ScaleResults } from './scale.ts';

/** Per round: bare INSERTs, appends in one workspace, appends one workspace per writer, transactions with an event. */
export type ThroughputRound = { baselinePerSec: number; samePerSec: number; multiPerSec: number; txPerSec: number; sameErrors: number; multiErrors: number };
export type ThroughputCase = { concurrency: number; rounds: ThroughputRound[] };

/** Counts over the log, per task (seq) and per workspace (position). */
export type LogCount = { scope: 'task' | 'workspace'; id: string; events: number; distinct: number; max: number };

export type PathStats = { p50: number; p99: number; samples: number; expected: number };
export type LatencyRound = { round: number; order: 'app-first' | 'base-first'; app: PathStats; base: PathStats };
export type LatencyCase = {
  subscribers: number;
  eventsPerRound: number;
  rounds: LatencyRound[];
  /** Per subscriber, the seqs of taskEvents in arrival order (expected: 1..appLast). */
  appReceived: number[][];
  appLast: number;
  /** Per subscriber, the ids of the relay's messages in arrival order (expected: 1..baseLast). */
  baseReceived: number[][];
  baseLast: number;
  /** Delivered events/s (events × subscribers ÷ time until every subscriber had all), per burst round. */
  delivery: { app: number[]; base: number[]; eventsPerBurst: number };
  errors: string[];
};

export type ChannelResults = { throughput: ThroughputCase[]; log: LogCount[]; latency: LatencyCase[]; scale?: ScaleResults };

/**
 * Floors for append throughput (events/s ÷ bare INSERT rows/s, medians of interleaved rounds).
 * Regression bounds at about 60% of the quick run's figures on the 2-core machine (0.22–0.25 at
 * 1, 8 and 20 writers, in one workspace as across workspaces), not the target of 0.5: an append is
 * one statement and one commit like the baseline's and writers of one workspace no longer wait for
 * each other, but the statement does more (the task's seq, four indexes, the sequencer's second
 * write of the row) and Node shares the two cores with PostgreSQL. Same-workspace and
 * workspace-per-writer figures agree now; a floor for one that the other passes would mean the
 * workspace serialises writers again.
 */
export const THROUGHPUT_FLOORS: Record<number, number> = { 1: 0.15, 8: 0.12, 20: 0.12 };
/**
 * Floor for a state change with its event (an interactive transaction through Prisma: BEGIN, the
 * append, COMMIT; measured 0.10–0.17): a regression bound.
 */
export const TRANSACTION_FLOOR = 0.06;
/**
 * Ceilings for app latency ÷ relay latency (median over rounds of each round's p50), per number of
 * subscribers. At 100 subscribers of one task the server runs the subscription's GraphQL for each of
 * them for every event (10,000 deliveries/s at 100 events/s) and queues; the relay writes raw bytes.
 * At 1,000 that is 100,000 deliveries/s, and one server process executes about 17,000/s (measured on
 * the idle 2-core machine, 2026-12-02: p50 2.9 s against the relay's 6 ms, ×475): the fan-out target
 * is not met there and the report says so; this ceiling only catches a regression beyond it (a lost
 * bounded buffer, a read per subscriber per event).
 */
export const LATENCY_P50_CEILINGS: Record<number, number> = { 1: 40, 10: 40, 100: 150, 1000: 1500 };
const ceilingFor = (n: number) => LATENCY_P50_CEILINGS[n] ?? 150;

export function throughputFigures(c: ThroughputCase) {
  const base = median(c.rounds.map((r) => r.baselinePerSec));
  const same = median(c.rounds.map((r) => r.samePerSec));
  const multi = median(c.rounds.map((r) => r.multiPerSec));
  const tx = median(c.rounds.map((r) => r.txPerSec));
  return { base, same, multi, tx, sameRatio: same / base, multiRatio: multi / base, txRatio: tx / base };
}

export function latencyFigures(c: LatencyCase) {
  const appP50 = median(c.rounds.map((r) => r.app.p50));
  const appP99 = median(c.rounds.map((r) => r.app.p99));
  const baseP50 = median(c.rounds.map((r) => r.base.p50));
  const baseP99 = median(c.rounds.map((r) => r.base.p99));
  const appDelivered = median(c.delivery.app);
  const baseDelivered = median(c.delivery.base);
  return { appP50, appP99, baseP50, baseP99, ratioP50: appP50 / baseP50, ratioP99: appP99 / baseP99, appDelivered, baseDelivered, deliveredRatio: appDelivered / baseDelivered };
}

export function checkChannel(r: ChannelResults): string[] {
  const v: string[] = r.scale ? scaleViolations(r.scale) : [];
  for (const c of r.throughput) {
    const errors = c.rounds.reduce((n, x) => n + x.sameErrors + x.multiErrors, 0);
    if (errors) v.push(`throughput c=${c.concurrency}: ${errors} appends failed`);
  }
  for (const l of r.log) {
    if (l.events !== l.distinct) v.push(`${l.scope} ${l.id}: ${l.events - l.distinct} duplicated ${l.scope === 'task' ? 'seqs' : 'positions'}`);
    if (l.distinct !== l.max) v.push(`${l.scope} ${l.id}: ${l.distinct} distinct ${l.scope === 'task' ? 'seqs' : 'positions'} up to ${l.max} (gap)`);
  }
  for (const c of r.latency) {
    for (const e of c.errors) v.push(`latency N=${c.subscribers}: ${e}`);
    if (c.appReceived.length !== c.subscribers) v.push(`latency N=${c.subscribers}: ${c.appReceived.length} app subscribers reported`);
    if (c.baseReceived.length !== c.subscribers) v.push(`latency N=${c.subscribers}: ${c.baseReceived.length} relay subscribers reported`);
    const appWant = range1(c.appLast);
    const baseWant = range1(c.baseLast);
    c.appReceived.forEach((seqs, k) => v.push(...sequenceViolations(`latency N=${c.subscribers} app subscriber ${k}`, seqs, appWant)));
    c.baseReceived.forEach((ids, k) => v.push(...sequenceViolations(`latency N=${c.subscribers} relay subscriber ${k}`, ids, baseWant)));
    for (const round of c.rounds) {
      for (const [path, s] of [['app', round.app], ['relay', round.base]] as const) {
        if (s.samples !== s.expected) v.push(`latency N=${c.subscribers} round ${round.round}: ${path} measured ${s.samples} of ${s.expected} deliveries`);
      }
    }
  }
  return v;
}

/** Regression bound for large-log ÷ small-log figures (the aim is 1.2). */
export const SCALE_CEILING = 2.5;

export function channelGates(r: ChannelResults): Gate[] {
  const gates: Gate[] = [];
  for (const c of r.throughput) {
    const f = throughputFigures(c);
    const floor = THROUGHPUT_FLOORS[c.concurrency] ?? 0.01;
    gates.push({ name: `append throughput c=${c.concurrency}, same workspace ÷ bare INSERT`, value: f.sameRatio, min: floor });
    gates.push({ name: `append throughput c=${c.concurrency}, one workspace per writer ÷ bare INSERT`, value: f.multiRatio, min: floor });
    gates.push({ name: `transaction with an event c=${c.concurrency} ÷ bare INSERT`, value: f.txRatio, min: TRANSACTION_FLOOR });
  }
  for (const c of r.latency) {
    gates.push({ name: `publish→receive p50, N=${c.subscribers}: app ÷ relay`, value: latencyFigures(c).ratioP50, max: ceilingFor(c.subscribers) });
  }
  if (r.scale) {
    // Loose: a large log that makes appends or catch-up reads several times slower is a scan or a
    // missing index, not noise (the target, 1.2×, is printed beside).
    const f = scaleFigures(r.scale);
    for (const w of r.scale.config.writers) gates.push({ name: `append rate, ${w} writer(s): small log ÷ large log`, value: f.appendRatio[w]!, max: SCALE_CEILING });
    gates.push({ name: 'catch-up read p50: large log ÷ small log', value: f.read.ratioP50, max: SCALE_CEILING });
  }
  return gates;
}

/** Plants one anomaly into collected results (ATELIER_BENCH_PLANT; the checker must report it). */
export function plantChannel(r: ChannelResults, kind: string): ChannelResults {
  const copy = structuredClone(r);
  const c = copy.latency[0];
  if (kind === 'duplicate' && c?.appReceived[0]?.length) c.appReceived[0].splice(1, 0, c.appReceived[0][0]!);
  else if (kind === 'gap' && c?.appReceived[0]?.length) c.appReceived[0].splice(1, 1);
  else if (kind === 'log-gap' && copy.log[0]) copy.log[0].max += 1;
  else if (kind === 'slow' && c) for (const x of c.rounds) x.app.p50 = x.base.p50 * (ceilingFor(c.subscribers) + 1);
  else throw new Error(`bench:channel cannot plant "${kind}" (duplicate, gap, log-gap, slow)`);
  return copy;
}
