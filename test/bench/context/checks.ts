// bench:context's measures and judgement, as pure functions (test/bench-anomaly.test.ts feeds them
// planted anomalies). A request is its tool definitions (JSON schema, sent first) and its messages.
// What a provider's prompt cache can reuse from the task's previous request is the longest common
// prefix; the two parts are measured apart, because the tool definitions are ~60% of a request and
// rarely change, which would hide how much of the message part is reused:
//   tools    = common prefix of the tool definitions ÷ their size;
//   messages = common prefix of the message sequence ÷ its size (as if the tools were cached apart);
//   request  = common prefix of the whole request (tools first) ÷ its size — a change in the tools
//              breaks the cache for all the messages after them.
import { median, type Gate } from '../verdict.ts';
import type { RetrievalFigures } from './retrieval.ts';
import type { PickupFigures } from './pickup.ts';

export type StepStat = {
  ordinal: number;
  toolChars: number;
  msgChars: number;
  toolPrefix: number;
  msgPrefix: number;
  requestPrefix: number;
  compactions: number[];
  model: string;
  role: string;
  /** Where the request first differs from the previous one: t = tool definitions, m<i> = message i, - = none. */
  breakAt: string;
};

function prefixOf(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] === b[i]) {
      n += a[i]!.length;
      continue;
    }
    const x = a[i]!;
    const y = b[i]!;
    let k = 0;
    while (k < x.length && k < y.length && x[k] === y[k]) k++;
    return n + k;
  }
  return n;
}

/** The measures of one request (`tools`: the definitions as sent; `messages`: each message as sent) against the previous one. */
export function measureStep(prev: { tools: string; messages: string[] } | null, cur: { tools: string; messages: string[] }) {
  const toolChars = cur.tools.length;
  const msgChars = cur.messages.reduce((n, m) => n + m.length, 0);
  if (!prev) return { toolChars, msgChars, toolPrefix: 0, msgPrefix: 0, requestPrefix: 0, breakAt: '-' };
  const toolPrefix = prefixOf([prev.tools], [cur.tools]);
  const msgPrefix = prefixOf(prev.messages, cur.messages);
  const toolsSame = prev.tools === cur.tools;
  let i = 0;
  while (i < Math.min(prev.messages.length, cur.messages.length) && prev.messages[i] === cur.messages[i]) i++;
  const breakAt = !toolsSame ? 't' : i === cur.messages.length && i === prev.messages.length ? '-' : `m${i}`;
  return { toolChars, msgChars, toolPrefix, msgPrefix, requestPrefix: toolsSame ? toolChars + msgPrefix : toolPrefix, breakAt };
}

export type Shares = { tools: number; messages: number; request: number; toolShareOfRequest: number };

/** Size-weighted shares over each task's steps after its first (a first step has no previous request). */
export function pooledShares(tasks: readonly (readonly StepStat[])[]): Shares {
  const later = tasks.flatMap((s) => s.slice(1));
  const sum = (xs: readonly StepStat[], f: (s: StepStat) => number) => xs.reduce((n, s) => n + f(s), 0);
  const all = tasks.flat();
  const size = sum(all, (s) => s.toolChars + s.msgChars);
  return {
    tools: later.length ? sum(later, (s) => s.toolPrefix) / sum(later, (s) => s.toolChars) : NaN,
    messages: later.length ? sum(later, (s) => s.msgPrefix) / sum(later, (s) => s.msgChars) : NaN,
    request: later.length ? sum(later, (s) => s.requestPrefix) / sum(later, (s) => s.toolChars + s.msgChars) : NaN,
    toolShareOfRequest: size ? sum(all, (s) => s.toolChars) / size : NaN,
  };
}

export const shares = (stats: readonly StepStat[]) => pooledShares([stats]);

export type ContextResults = {
  scenarios: { name: string; error: string | null; tasks: { label: string; stats: StepStat[] }[] }[];
  long: { on: LongRun; off: LongRun };
};
export type LongRun = { outcome: string; replayOk: boolean; stats: StepStat[] };

export function checkContext(r: ContextResults): string[] {
  const v: string[] = [];
  for (const s of r.scenarios) {
    if (s.error) v.push(`scenario "${s.name}" failed: ${s.error}`);
    else if (!s.tasks.some((t) => t.stats.length)) v.push(`scenario "${s.name}": no model request was recorded`);
  }
  for (const [label, run] of [['with compaction', r.long.on], ['baseline without compaction', r.long.off]] as const) {
    if (run.outcome !== 'completed') v.push(`synthetic long task, ${label}: turn outcome ${run.outcome}, expected completed`);
    if (!run.replayOk) v.push(`synthetic long task, ${label}: replay diverged`);
  }
  return v;
}

export const longTasks = (r: ContextResults) => r.scenarios.flatMap((s) => s.tasks).filter((t) => t.stats.length >= 6);
const lastChars = (s: readonly StepStat[]) => (s.length ? s.at(-1)!.toolChars + s.at(-1)!.msgChars : NaN);

/** Floors on the message part's cacheable share; a ceiling on the compacted task's size against the baseline at its last step. */
export const SCENARIO_MESSAGES_FLOOR = 0.5;
export const LONG_MESSAGES_FLOOR = 0.6;
export const SIZE_RATIO_CEILING = 0.4;

export function contextFigures(r: ContextResults) {
  const pooled = pooledShares(longTasks(r).map((t) => t.stats));
  const on = shares(r.long.on.stats);
  const off = shares(r.long.off.stats);
  return { scenarios: pooled, on, off, sizeRatioAtEnd: lastChars(r.long.on.stats) / lastChars(r.long.off.stats), messagesPerTask: longTasks(r).map((t) => shares(t.stats).messages) };
}

export function contextGates(r: ContextResults): Gate[] {
  const f = contextFigures(r);
  return [
    { name: 'scenario tasks (≥ 6 steps): message part cacheable share', value: f.scenarios.messages, min: SCENARIO_MESSAGES_FLOOR },
    { name: 'synthetic long task with compaction: message part cacheable share', value: f.on.messages, min: LONG_MESSAGES_FLOOR },
    { name: 'synthetic long task: size at the last step, compaction on ÷ off', value: f.sizeRatioAtEnd, max: SIZE_RATIO_CEILING },
  ];
}

export const medianMessageShare = (r: ContextResults) => median(contextFigures(r).messagesPerTask);

export function plantContext(r: ContextResults, kind: string): ContextResults {
  const x = structuredClone(r);
  if (kind === 'failed-scenario' && x.scenarios[0]) x.scenarios[0].error = 'planted failure';
  else if (kind === 'diverged') x.long.on.replayOk = false;
  else if (kind === 'no-cache') for (const s of x.long.on.stats) s.msgPrefix = 0;
  else throw new Error(`bench:context cannot plant "${kind}" (failed-scenario, diverged, no-cache)`);
  return x;
}

// ---- Memory retrieval at 10,000 memories (./retrieval.ts) and background pickup (./pickup.ts).
// Targets (printed beside each figure): retrieval p99 ≤ 50 ms under load, a job's handler started
// ≤ 100 ms after its send, a stated fact retrievable ≤ 1 s. The gates are looser: they catch a
// path that got several times slower, or a poll interval waited for again, not the machine's noise.

export const RETRIEVAL_TARGET_MS = 50;
/** Three quarters of the product's memory budget (1 s): past it, steps start going without memory. */
export const RETRIEVAL_P99_CEILING_MS = 750;
export const PICKUP_TARGET_MS = 100;
/** A job that waited for pg-boss's poll (0.5 s backstop) at the p99 and more. */
export const PICKUP_P99_CEILING_MS = 1000;
export const FACT_TARGET_MS = 1000;
export const FACT_P99_CEILING_MS = 3000;
/** Memory tables that grow with use: a sequential scan of one reads every workspace's rows. */
export const GROWING_MEMORY_TABLES = ['memories', 'memory_versions', 'memory_evidence', 'memory_links', 'memory_summary_sentences', 'memory_uses'];

export function checkRetrieval(r: RetrievalFigures): string[] {
  const v: string[] = [];
  if (r.unavailableCount) v.push(`memory retrieval: ${r.unavailableCount} MEMORY_UNAVAILABLE while the database was up (budget ${r.budgetMs} ms)`);
  if (r.emptySections) v.push(`memory retrieval: ${r.emptySections} retrievals returned no memory section`);
  if (r.load.errors) v.push(`memory retrieval: ${r.load.errors} errors in the load`);
  for (const table of GROWING_MEMORY_TABLES) {
    const s = r.seqScans[table];
    if (s?.scans) v.push(`memory retrieval: ${s.scans} sequential scans of ${table} (${s.rows} rows read)`);
  }
  return v;
}

export function retrievalGates(r: RetrievalFigures): Gate[] {
  return [{ name: `memory retrieval p99 at ${r.memories} memories, under load (ms)`, value: r.p99, max: RETRIEVAL_P99_CEILING_MS }];
}

export function checkPickup(p: PickupFigures): string[] {
  const v: string[] = [];
  for (const q of p.queues) if (q.missed) v.push(`pickup: ${q.missed} jobs of ${q.queue} never reached their handler`);
  if (p.fact.missed) v.push(`pickup: ${p.fact.missed} stated facts never became retrievable`);
  return v;
}

export function pickupGates(p: PickupFigures): Gate[] {
  return [
    ...p.queues.map((q) => ({ name: `pickup p99, ${q.queue} (ms)`, value: q.p99, max: PICKUP_P99_CEILING_MS })),
    { name: 'stated fact → retrievable p99 (ms)', value: p.fact.p99, max: FACT_P99_CEILING_MS },
  ];
}
