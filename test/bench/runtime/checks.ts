// bench:runtime's judgement, as pure functions over what the run collected (test/bench-anomaly.test.ts
// feeds them planted anomalies).
//   (a) every task of the overhead runs and of the end-to-end run completed; gates: ms per step
//       against one commit per step (ceilings), commits and statements per step (ceilings).
//   (b) recovery: the planned tasks were all created, workers were killed while running turns, and
//       afterwards every task is in exactly one terminal state (COMPLETED), its log gap-free, each
//       step's effect exists exactly once (a replay by key is allowed: the tool is IDEMPOTENT), and
//       every task a kill interrupted was taken over.
import { median, type Gate } from '../verdict.ts';
import type { E2eResult, OverheadCase } from './overhead.ts';
import { addCounts, commitsOf, zeroCounts } from './sql-counter.ts';

export type TaskRow = { id: string; status: string; terminal: number; takeovers: number; max_gen: number; turns: number; events: number; distinct_seqs: number; max_seq: number };
export type EffectRow = { task_id: string; k: number; n: number; runs: number };
export type AffectedRow = { kill: number; killAt: number; taskId: string; turnNumber: number; generation: number; leaseExpiresAt: number; takeoverAt: number | null; firstEventAt: number | null };
export type RecoveryCollected = {
  planned: number;
  created: number;
  feedStoppedEarly: boolean;
  kills: number;
  tasks: TaskRow[];
  effects: EffectRow[];
  affected: AffectedRow[];
  events: { task_id: string; seq: number; type: string; at: Date; payload: unknown; created: Date }[];
  wakeups: { turn_id: string; generation: string; state: string; created: Date; started: Date | null; task_id: string }[];
};

/** Effects each COMPLETED task of (b) must have: k = 0 … steps − 1. */
export function checkRecovery(c: RecoveryCollected, steps: number): string[] {
  const v: string[] = [];
  if (c.created !== c.planned || c.feedStoppedEarly) v.push(`planned ${c.planned} tasks, created ${c.created}${c.feedStoppedEarly ? ' (the feed deadline passed)' : ''}`);
  if (c.tasks.length !== c.created) v.push(`${c.tasks.length} tasks in the workspace, ${c.created} created`);
  if (c.kills === 0) v.push('no worker was killed: recovery was not exercised');
  else if (c.affected.length === 0) v.push('no kill interrupted a running turn: recovery was not exercised');
  const effects = new Map<string, EffectRow[]>();
  for (const e of c.effects) (effects.get(e.task_id) ?? effects.set(e.task_id, []).get(e.task_id)!).push(e);
  for (const k of c.tasks) {
    if (k.status !== 'COMPLETED') v.push(`task ${k.id}: ended ${k.status}, expected COMPLETED (turns ${k.turns}, generation ${k.max_gen})`);
    if (k.terminal !== 1) v.push(`task ${k.id}: ${k.terminal} terminal TASK_STATUS_CHANGED events (status ${k.status})`);
    if (k.events !== k.distinct_seqs) v.push(`task ${k.id}: ${k.events - k.distinct_seqs} duplicated event seqs`);
    if (k.distinct_seqs !== k.max_seq) v.push(`task ${k.id}: ${k.distinct_seqs} distinct event seqs up to ${k.max_seq} (gap)`);
    const effs = effects.get(k.id) ?? [];
    for (const e of effs) if (e.n > 1) v.push(`task ${k.id}: effect k=${e.k} exists ${e.n} times (duplicated effect)`);
    if (k.status === 'COMPLETED') {
      const ks = new Set(effs.map((e) => e.k));
      for (let i = 0; i < steps; i++) if (!ks.has(i)) v.push(`task ${k.id}: COMPLETED without effect k=${i}`);
    }
  }
  for (const a of c.affected) if (a.takeoverAt === null) v.push(`kill ${a.kill}: task ${a.taskId} (turn ${a.turnNumber}, generation ${a.generation}) never taken over`);
  return v;
}

/** Effects run more than once under one key: allowed (IDEMPOTENT tools are replayed after a kill), reported. */
export const replayedEffects = (c: RecoveryCollected) => c.effects.filter((e) => e.runs > e.n).length;

export function checkOverhead(cases: OverheadCase[], e2e: E2eResult | undefined): string[] {
  const v: string[] = [];
  for (const c of cases) {
    const n = c.rounds.reduce((s, r) => s + r.notCompleted, 0);
    if (n) v.push(`overhead ${c.label}: ${n} tasks not completed`);
  }
  if (e2e && e2e.notCompleted) v.push(`end to end: ${e2e.notCompleted} of ${e2e.tasks} tasks not completed`);
  return v;
}

export function overheadFigures(c: OverheadCase) {
  const counts = c.rounds.reduce((a, r) => addCounts(a, r.counts), zeroCounts());
  const steps = c.stepsPerRound * c.rounds.length;
  const msPerStep = median(c.rounds.map((r) => r.runtimeMs / c.stepsPerRound));
  const baselineMsPerStep = median(c.rounds.map((r) => r.baselineMs / c.stepsPerRound));
  return {
    counts,
    steps,
    msPerStep,
    baselineMsPerStep,
    ratio: msPerStep / baselineMsPerStep,
    commitsPerStep: commitsOf(counts) / steps,
    sequencerCommitsPerStep: counts.sequencerCommits / steps,
    statementsPerStep: counts.statements / steps,
    cpuMsPerStep: median(c.rounds.map((r) => r.cpuMs / c.stepsPerRound)),
  };
}

/**
 * Ceilings: ms per step ÷ one commit per step (the baseline), per case; commits and statements per
 * step. The sequential ceiling is a regression guard, not the aim (≤ 2× is): on the 2-core machine
 * the baseline commit alone moved between 0.69 and 1.40 ms across runs of one day, which moves the
 * ratio by a third with the step unchanged (86–97 ms), so 120 failed a run whose step was the
 * fastest measured; 160 still catches a step that gets a third slower.
 */
export const RATIO_CEILINGS: Record<string, number> = { sequential: 160, concurrent: 400 };
export const COMMITS_PER_STEP_CEILING = 4;
/**
 * Event sequencing after the step's commits (one run per flush of the writing process; measured
 * 2.5–3.2 per step with one task at a time, fewer when many tasks' commits coalesce): a regression
 * bound. These commits are not on the step's path, but the database makes them.
 */
export const SEQUENCER_COMMITS_PER_STEP_CEILING = 4;
export const STATEMENTS_PER_STEP_CEILING = 70;

export function runtimeGates(cases: OverheadCase[]): Gate[] {
  const gates: Gate[] = [];
  for (const c of cases) {
    const f = overheadFigures(c);
    const ceiling = RATIO_CEILINGS[c.concurrency === 1 ? 'sequential' : 'concurrent']!;
    gates.push({ name: `${c.label}: runtime ms/step ÷ one commit per step`, value: f.ratio, max: ceiling });
    gates.push({ name: `${c.label}: commits per step (baseline 1)`, value: f.commitsPerStep, max: COMMITS_PER_STEP_CEILING });
    gates.push({ name: `${c.label}: statements per step (baseline 3)`, value: f.statementsPerStep, max: STATEMENTS_PER_STEP_CEILING });
    gates.push({ name: `${c.label}: event sequencing commits per step (after the step's own)`, value: f.sequencerCommitsPerStep, max: SEQUENCER_COMMITS_PER_STEP_CEILING });
  }
  return gates;
}

export function plantRecovery(c: RecoveryCollected, kind: string): RecoveryCollected {
  const x = structuredClone(c);
  const e = x.effects[0];
  const t = x.tasks[0];
  if (kind === 'duplicate' && e) e.n = 2;
  else if (kind === 'gap' && t) t.max_seq += 1;
  else if (kind === 'missing-effect' && e) x.effects.splice(0, 1);
  else if (kind === 'two-terminal' && t) t.terminal = 2;
  else throw new Error(`bench:runtime cannot plant "${kind}" (duplicate, gap, missing-effect, two-terminal)`);
  return x;
}

/** Doubles the runtime's commits and time in collected overhead rounds (the commits gate must trip). */
export function plantDoubledCommits(cases: OverheadCase[]): OverheadCase[] {
  return cases.map((c) => ({
    ...c,
    rounds: c.rounds.map((r) => ({ ...r, runtimeMs: r.runtimeMs * 2, counts: { ...r.counts, txCommits: r.counts.txCommits * 2, statements: r.counts.statements * 2 } })),
  }));
}
