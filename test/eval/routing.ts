// npm run eval:routing [-- --quiet] — runs the labelled routing cases through the router the product
// uses when no model is configured (deterministic routes, then the offline router over the task
// index, then the duplicate check), on three sets:
//   development  routing-cases.json     the set the router was built and tuned on
//   held-out     routing-heldout.json   written apart, never used to change the router (see its note)
//   held-out 2   routing-heldout-2.json routing that reads the work (dates, typos, names, finished
//                                       tasks, signals, status, one-offs, next editions), written
//                                       before the router was changed, never tuned on
// For each set it prints accuracy per expected outcome, with the deterministic cases (task panel,
// clarification card, viewed object: right by construction) apart from the judgement cases, the
// wrong-task rate (the costly error), the unnecessary clarifications, and the figures before this
// router (routing-baseline.json); then the whole set against its targets. Exits 1 when a set is
// invalid or a figure is below its floor (test/eval/floors.ts): CI runs this as a gate.
// The index is built from each case's tasks as loadTaskIndex would (live and finished tasks by
// recency, recently archived ones with their state), without a database.
import { readFileSync } from 'node:fs';
import { routeDeterministic } from '../../server/routing/deterministic.ts';
import { asDuplicateQuestion, likelyDuplicate, routeOffline } from '../../server/routing/offline-router.ts';
import { ARCHIVED_INDEX_DAYS, INDEX_ARCHIVED, INDEX_RECENT, type RouteDecision, type TaskIndexEntry } from '../../server/routing/types.ts';
import { ROUTING_FLOORS, type RoutingFloors } from './floors.ts';
import {
  coverageFor,
  DEFAULT_CASES_FILE,
  deterministicRoute,
  HELDOUT2_CASES_FILE,
  HELDOUT_CASES_FILE,
  loadCases,
  OUTCOMES,
  validateCases,
  type RoutingCase,
  type RoutingTask,
} from './validate-cases.ts';

/** The evaluation's clock: a Sunday noon (UTC), so "yesterday", "tuesday" and "last week" are fixed. */
export const NOW = new Date('2026-11-29T12:00:00Z');
const LIVE = ['QUEUED', 'RUNNING', 'WAITING', 'PAUSED'];
const FINISHED = ['COMPLETED', 'FAILED', 'CANCELLED'];
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3600_000);

/** The judgement part of routing: what the offline router (or a model) decides over the task index. */
export type Router = (text: string, index: TaskIndexEntry[], now: Date) => RouteDecision;

/** A case's task as an index entry, with the fields loadTaskIndex fills in. */
export function entryOf(t: RoutingTask): TaskIndexEntry {
  return {
    taskId: t.key,
    title: t.title,
    goal: t.goal.slice(0, 200),
    summary: t.summary.slice(0, 200),
    status: t.status,
    kind: t.kind,
    language: t.language,
    lastActivityAt: hoursAgo(t.lastActivityHoursAgo),
    createdAt: hoursAgo(t.createdHoursAgo ?? t.lastActivityHoursAgo),
    endedAt: FINISHED.includes(t.status) ? hoursAgo(t.endedHoursAgo ?? t.lastActivityHoursAgo) : null,
    archived: t.archived,
    objects: t.objects.map((k) => t.objectNames?.[k] ?? k),
    results: t.results ?? [],
    retrieval: 0,
  };
}

/**
 * The index the router sees for a case: the visible tasks by recency (the database adds up to
 * INDEX_RETRIEVED retrieved tasks to the recent ones; with at most 30 tasks per case the whole
 * visible set fits), then the tasks archived within ARCHIVED_INDEX_DAYS.
 */
export function indexFor(c: RoutingCase): TaskIndexEntry[] {
  const byRecency = (a: RoutingTask, b: RoutingTask) => a.lastActivityHoursAgo - b.lastActivityHoursAgo;
  const visible = c.tasks.filter((t) => !t.archived).sort(byRecency).slice(0, INDEX_RECENT + 10);
  const archived = c.tasks
    .filter((t) => t.archived && (t.archivedHoursAgo ?? t.lastActivityHoursAgo) <= ARCHIVED_INDEX_DAYS * 24)
    .sort((a, b) => (a.archivedHoursAgo ?? a.lastActivityHoursAgo) - (b.archivedHoursAgo ?? b.lastActivityHoursAgo))
    .slice(0, INDEX_ARCHIVED);
  return [...visible, ...archived].map(entryOf);
}

export function routeCase(c: RoutingCase, router: Router = routeOffline): RouteDecision {
  const m = c.message;
  const owners = m.objectKey ? c.tasks.filter((t) => !t.archived && t.objects.includes(m.objectKey!)).map((t) => ({ taskId: t.key, title: t.title })) : undefined;
  const card = m.cardAction
    ? { action: m.cardAction.choice === 'create' ? ('create' as const) : ('continue' as const), taskId: m.cardAction.cardTaskKey, label: m.cardAction.choice }
    : null;
  const det = routeDeterministic({ taskId: m.taskKey ?? null, card, objectId: m.objectKey ?? null, objectOwners: owners });
  if (det) return det;
  const index = indexFor(c);
  let d = router(m.text, index, NOW);
  if (d.outcome === 'NEW_TASK') {
    const running = index.filter((e) => !e.archived && LIVE.includes(e.status) && e.kind === 'PERSISTENT').slice(0, 50);
    const dup = likelyDuplicate(m.text, running, NOW);
    if (dup) d = asDuplicateQuestion(d, dup);
  }
  return d;
}

/**
 * Whether a decision is right for a case: the outcome; for EXISTING_TASK the task; the intent when
 * one is expected, and no intent for a plain delivery (a cancel, a pause or a status answer there
 * would keep the message from the task); the seed when one is expected. RESUME and a plain
 * delivery have one effect on a live task — a message delivered to a paused task resumes it, and
 * a resume carries the message — so either is right where the other is expected; a finished task
 * cannot be resumed (a message to it continues it as a next round), so there RESUME is wrong.
 */
export function judge(c: RoutingCase, d: RouteDecision): { ok: boolean; wrongTask: boolean; unnecessaryClarify: boolean } {
  const exp = c.expected;
  let ok = d.outcome === exp.outcome;
  if (exp.outcome === 'EXISTING_TASK') ok &&= d.taskId === exp.taskKey;
  const target = c.tasks.find((t) => t.key === exp.taskKey);
  const finished = !!target && FINISHED.includes(target.status);
  const delivery = (i: string | undefined) => (i === 'RESUME' && !finished ? undefined : i);
  if (exp.outcome === 'EXISTING_TASK') ok &&= delivery(d.intent) === delivery(exp.intent);
  else if (exp.intent) ok &&= d.intent === exp.intent;
  if (exp.seedTaskKey) ok &&= d.seedTaskId === exp.seedTaskKey;
  return {
    ok,
    wrongTask: d.outcome === 'EXISTING_TASK' && d.taskId !== exp.taskKey,
    unnecessaryClarify: d.outcome === 'CLARIFY' && exp.outcome !== 'CLARIFY',
  };
}

const describe = (o: { outcome: string; taskId?: string | null; taskKey?: string; intent?: string; seedTaskId?: string | null; seedTaskKey?: string }) =>
  `${o.outcome}${(o.taskKey ?? o.taskId) ? `:${o.taskKey ?? o.taskId}` : ''}${o.intent ? `/${o.intent}` : ''}${(o.seedTaskKey ?? o.seedTaskId) ? ` seed:${o.seedTaskKey ?? o.seedTaskId}` : ''}`;

export type Counts = { cases: number; correct: number };

export type EvalResult = {
  total: number;
  correct: number;
  perOutcome: Record<string, Counts>;
  wrongTask: number;
  clarifications: number;
  /** Clarifications asked where the expected route was not CLARIFY. */
  unnecessaryClarifications: number;
  failures: { id: string; text: string; expected: string; got: string; reason: string }[];
};

export function evaluate(cases: RoutingCase[], router: Router = routeOffline): EvalResult {
  const r: EvalResult = { total: cases.length, correct: 0, perOutcome: {}, wrongTask: 0, clarifications: 0, unnecessaryClarifications: 0, failures: [] };
  for (const c of cases) {
    const d = routeCase(c, router);
    const j = judge(c, d);
    const bucket = (r.perOutcome[c.expected.outcome] ??= { cases: 0, correct: 0 });
    bucket.cases++;
    if (j.ok) {
      bucket.correct++;
      r.correct++;
    } else {
      r.failures.push({ id: c.id, text: c.message.text, expected: describe(c.expected), got: describe(d), reason: d.reason });
    }
    if (j.wrongTask) r.wrongTask++;
    if (d.outcome === 'CLARIFY') r.clarifications++;
    if (j.unnecessaryClarify) r.unnecessaryClarifications++;
  }
  return r;
}

/** A set's figures: the deterministic cases (right by construction) apart from the judgement cases. */
export type SetResult = { deterministic: EvalResult; judgement: EvalResult };

export function scoreSet(cases: RoutingCase[], router: Router = routeOffline): SetResult {
  return {
    deterministic: evaluate(cases.filter((c) => deterministicRoute(c) !== null), router),
    judgement: evaluate(cases.filter((c) => deterministicRoute(c) === null), router),
  };
}

const rate = (a: number, b: number) => (b ? a / b : 0);

/** Every floor a set's figures miss, as sentences (empty when all are met). */
export function belowFloors(r: SetResult, floors: RoutingFloors): string[] {
  const out: string[] = [];
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const det = rate(r.deterministic.correct, r.deterministic.total);
  if (r.deterministic.total && det < floors.deterministic) out.push(`deterministic ${pct(det)} < ${pct(floors.deterministic)}`);
  const j = r.judgement;
  if (rate(j.correct, j.total) < floors.judgement) out.push(`judgement overall ${pct(rate(j.correct, j.total))} < ${pct(floors.judgement)}`);
  for (const o of OUTCOMES) {
    const b = j.perOutcome[o];
    const floor = floors.perOutcome[o];
    if (b && floor !== undefined && rate(b.correct, b.cases) < floor) out.push(`judgement ${o} ${pct(rate(b.correct, b.cases))} < ${pct(floor)}`);
  }
  const wrong = rate(j.wrongTask, j.total);
  if (wrong > floors.maxWrongTaskRate) out.push(`wrong-task rate ${pct(wrong)} > ${pct(floors.maxWrongTaskRate)}`);
  if (floors.maxUnnecessaryClarifyRate !== undefined) {
    const u = rate(j.unnecessaryClarifications, j.total);
    if (u > floors.maxUnnecessaryClarifyRate) out.push(`unnecessary clarifications ${pct(u)} > ${pct(floors.maxUnnecessaryClarifyRate)}`);
  }
  return out;
}

export const SETS = [
  { name: 'development', file: DEFAULT_CASES_FILE, floors: ROUTING_FLOORS.development },
  { name: 'held-out', file: HELDOUT_CASES_FILE, floors: ROUTING_FLOORS.heldout },
  { name: 'held-out 2', file: HELDOUT2_CASES_FILE, floors: ROUTING_FLOORS.heldout2 },
] as const;

/** The targets of the whole set (every set together), judgement cases. Printed, not a gate: the floors are. */
export const TARGETS = { overall: 0.9, perOutcome: 0.8, maxWrongTaskRate: 0.02, maxUnnecessaryClarifyRate: 0.1 };

export function loadSet(file: string): RoutingCase[] {
  const v = validateCases(loadCases(file), coverageFor(file));
  if (v.problems.length) throw new Error(`${file}:\n${v.problems.join('\n')}`);
  return v.cases;
}

/** Figures of one set as recorded (the baseline file) or measured. */
type Figures = { judgement: { total: number; correct: number; wrongTask: number; unnecessaryClarifications: number; perOutcome: Record<string, Counts> }; deterministic: Counts };

const BASELINE_FILE = new URL('./routing-baseline.json', import.meta.url);

/** The figures of the router before it read the work (see the file's note), by set name. */
function loadBaseline(): Record<string, Figures> {
  try {
    return (JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as { sets: Record<string, Figures> }).sets;
  } catch {
    return {};
  }
}

const figuresOf = (r: SetResult): Figures => ({
  judgement: {
    total: r.judgement.total,
    correct: r.judgement.correct,
    wrongTask: r.judgement.wrongTask,
    unnecessaryClarifications: r.judgement.unnecessaryClarifications,
    perOutcome: r.judgement.perOutcome,
  },
  deterministic: { cases: r.deterministic.total, correct: r.deterministic.correct },
});

function addFigures(a: Figures, b: Figures): Figures {
  const perOutcome: Record<string, Counts> = {};
  for (const o of OUTCOMES) {
    const x = a.judgement.perOutcome[o] ?? { cases: 0, correct: 0 };
    const y = b.judgement.perOutcome[o] ?? { cases: 0, correct: 0 };
    perOutcome[o] = { cases: x.cases + y.cases, correct: x.correct + y.correct };
  }
  return {
    judgement: {
      total: a.judgement.total + b.judgement.total,
      correct: a.judgement.correct + b.judgement.correct,
      wrongTask: a.judgement.wrongTask + b.judgement.wrongTask,
      unnecessaryClarifications: a.judgement.unnecessaryClarifications + b.judgement.unnecessaryClarifications,
      perOutcome,
    },
    deterministic: { cases: a.deterministic.cases + b.deterministic.cases, correct: a.deterministic.correct + b.deterministic.correct },
  };
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : 'n/a');
const ratio = (a: number, b: number) => `${a}/${b} ${pct(a, b)}`;

/** The table of a set (or the whole set): before | after per outcome, then rates. */
function table(now: Figures, before: Figures | undefined, floors: RoutingFloors | null): void {
  const f = (x: number | undefined) => (x === undefined ? '' : `${Math.round(100 * x)}%`);
  console.log(`judgement cases    ${'before'.padStart(16)}  ${'after'.padStart(16)}  ${floors ? 'floor' : ''}`);
  for (const o of OUTCOMES) {
    const b = before?.judgement.perOutcome[o];
    const a = now.judgement.perOutcome[o] ?? { cases: 0, correct: 0 };
    console.log(`  ${o.padEnd(16)} ${(b ? ratio(b.correct, b.cases) : '—').padStart(16)}  ${ratio(a.correct, a.cases).padStart(16)}  ${floors ? f(floors.perOutcome[o]).padStart(5) : ''}`);
  }
  const bj = before?.judgement;
  const j = now.judgement;
  console.log(`  ${'all judgement'.padEnd(16)} ${(bj ? ratio(bj.correct, bj.total) : '—').padStart(16)}  ${ratio(j.correct, j.total).padStart(16)}  ${floors ? f(floors.judgement).padStart(5) : ''}`);
  const d = now.deterministic;
  console.log(`deterministic      ${(before ? ratio(before.deterministic.correct, before.deterministic.cases) : '—').padStart(16)}  ${ratio(d.correct, d.cases).padStart(16)}  ${floors ? f(floors.deterministic).padStart(5) : ''}`);
  const all = (x: Figures) => ratio(x.judgement.correct + x.deterministic.correct, x.judgement.total + x.deterministic.cases);
  console.log(`all cases          ${(before ? all(before) : '—').padStart(16)}  ${all(now).padStart(16)}`);
  console.log(`wrong-task routes  ${(bj ? pct(bj.wrongTask, bj.total) : '—').padStart(16)}  ${`${pct(j.wrongTask, j.total)} (${j.wrongTask})`.padStart(16)}  ${floors ? `≤ ${f(floors.maxWrongTaskRate)}` : ''}   a message delivered to the wrong task`);
  console.log(`unnecessary clar.  ${(bj ? pct(bj.unnecessaryClarifications, bj.total) : '—').padStart(16)}  ${`${pct(j.unnecessaryClarifications, j.total)} (${j.unnecessaryClarifications})`.padStart(16)}  ${floors?.maxUnnecessaryClarifyRate !== undefined ? `≤ ${f(floors.maxUnnecessaryClarifyRate)}` : ''}   a question where a route was expected`);
}

function printSet(name: string, file: string, r: SetResult, before: Figures | undefined, floors: RoutingFloors, quiet: boolean): string[] {
  const j = r.judgement;
  const d = r.deterministic;
  console.log(`\n${name} set — ${file.split('/').pop()}: ${j.total + d.total} cases (${d.total} deterministic, ${j.total} judgement)`);
  table(figuresOf(r), before, floors);
  if (!quiet && j.failures.length + d.failures.length) {
    console.log('failing:');
    for (const x of [...d.failures, ...j.failures]) console.log(`  ${x.id}: "${x.text}" expected ${x.expected}, got ${x.got} (${x.reason})`);
  }
  return belowFloors(r, floors).map((p) => `${name}: ${p}`);
}

/** The whole set against its targets, as sentences for each target missed. */
export function missedTargets(all: Figures): string[] {
  const j = all.judgement;
  const out: string[] = [];
  if (rate(j.correct, j.total) < TARGETS.overall) out.push(`overall ${pct(j.correct, j.total)} < ${100 * TARGETS.overall}%`);
  for (const o of OUTCOMES) {
    const b = j.perOutcome[o];
    if (b && rate(b.correct, b.cases) < TARGETS.perOutcome) out.push(`${o} ${pct(b.correct, b.cases)} < ${100 * TARGETS.perOutcome}%`);
  }
  if (rate(j.wrongTask, j.total) > TARGETS.maxWrongTaskRate) out.push(`wrong-task ${pct(j.wrongTask, j.total)} > ${100 * TARGETS.maxWrongTaskRate}%`);
  if (rate(j.unnecessaryClarifications, j.total) > TARGETS.maxUnnecessaryClarifyRate) {
    out.push(`unnecessary clarifications ${pct(j.unnecessaryClarifications, j.total)} > ${100 * TARGETS.maxUnnecessaryClarifyRate}%`);
  }
  return out;
}

function main() {
  const quiet = process.argv.includes('--quiet');
  console.log('routing evaluation — offline router (no model configured); before = routing-baseline.json');
  const baseline = loadBaseline();
  const misses: string[] = [];
  const summary: Record<string, Figures> = {};
  let whole: Figures | null = null;
  for (const s of SETS) {
    let cases: RoutingCase[];
    try {
      cases = loadSet(s.file);
    } catch (e) {
      console.error(e instanceof Error ? e.message : String(e));
      process.exit(1);
    }
    const r = scoreSet(cases, routeOffline);
    misses.push(...printSet(s.name, s.file, r, baseline[s.name], s.floors, quiet));
    summary[s.name] = figuresOf(r);
    whole = whole ? addFigures(whole, figuresOf(r)) : figuresOf(r);
  }
  const allBefore = SETS.every((s) => baseline[s.name]) ? SETS.map((s) => baseline[s.name]!).reduce(addFigures) : undefined;
  console.log(`\nwhole set (${SETS.map((s) => s.name).join(' + ')}) — targets: ≥ ${100 * TARGETS.overall}% overall, ≥ ${100 * TARGETS.perOutcome}% per outcome, wrong-task ≤ ${100 * TARGETS.maxWrongTaskRate}%, unnecessary clarifications ≤ ${100 * TARGETS.maxUnnecessaryClarifyRate}% (judgement cases)`);
  table(whole!, allBefore, null);
  const missed = missedTargets(whole!);
  console.log(missed.length ? `targets missed: ${missed.join('; ')}` : 'every target met');
  console.log(`\nEVAL_RESULT ${JSON.stringify(summary)}`);
  if (misses.length) {
    console.error(`\n✖ below the floors (test/eval/floors.ts):\n${misses.map((m) => `  - ${m}`).join('\n')}`);
    process.exit(1);
  }
  console.log('\n✓ every figure at or above its floor');
}

if (process.argv[1]?.endsWith('routing.ts')) main();
