// npm run eval:routing [-- --quiet] — runs the labelled routing cases through the router the product
// uses when no model is configured (deterministic routes, then the offline router over the task
// index, then the duplicate check), on two sets:
//   development  routing-cases.json   the set the router was built and tuned on
//   held-out     routing-heldout.json written apart, never used to change the router (see its note)
// For each set it prints accuracy per expected outcome, with the deterministic cases (task panel,
// clarification card, viewed object: right by construction) apart from the judgement cases, the
// wrong-task rate (the costly error) and the clarification rate. Exits 1 when a set is invalid or a
// figure is below its floor (test/eval/floors.ts): CI runs this as a gate.
// The index is built from each case's tasks exactly as loadTaskIndex would (archived excluded, most
// recent first), without a database.
import { routeDeterministic } from '../../server/routing/deterministic.ts';
import { asDuplicateQuestion, likelyDuplicate, routeOffline } from '../../server/routing/offline-router.ts';
import { INDEX_RECENT, type RouteDecision, type TaskIndexEntry } from '../../server/routing/types.ts';
import { ROUTING_FLOORS, type RoutingFloors } from './floors.ts';
import { coverageFor, DEFAULT_CASES_FILE, deterministicRoute, HELDOUT_CASES_FILE, loadCases, OUTCOMES, validateCases, type RoutingCase } from './validate-cases.ts';

const NOW = new Date('2026-11-29T12:00:00Z');
const LIVE = ['QUEUED', 'RUNNING', 'WAITING', 'PAUSED'];

/** The judgement part of routing: what the offline router (or a model) decides over the task index. */
export type Router = (text: string, index: TaskIndexEntry[], now: Date) => RouteDecision;

function entries(c: RoutingCase): (TaskIndexEntry & { key: string; archived: boolean })[] {
  return c.tasks.map((t) => ({
    key: t.key,
    archived: t.archived,
    taskId: t.key,
    title: t.title,
    goal: t.goal.slice(0, 200),
    summary: t.summary.slice(0, 200),
    status: t.status,
    kind: t.kind,
    language: t.language,
    lastActivityAt: new Date(NOW.getTime() - t.lastActivityHoursAgo * 3600_000),
    objects: t.objects,
    retrieval: 0,
  }));
}

export function routeCase(c: RoutingCase, router: Router = routeOffline): RouteDecision {
  const all = entries(c);
  const m = c.message;
  const owners = m.objectKey ? all.filter((e) => !e.archived && e.objects.includes(m.objectKey!)).map((e) => ({ taskId: e.key, title: e.title })) : undefined;
  const card = m.cardAction
    ? { action: m.cardAction.choice === 'create' ? ('create' as const) : ('continue' as const), taskId: m.cardAction.cardTaskKey, label: m.cardAction.choice }
    : null;
  const det = routeDeterministic({ taskId: m.taskKey ?? null, card, objectId: m.objectKey ?? null, objectOwners: owners });
  if (det) return det;
  const visible = all.filter((e) => !e.archived).sort((a, b) => b.lastActivityAt.getTime() - a.lastActivityAt.getTime());
  // The database adds up to INDEX_RETRIEVED retrieved tasks to the recent ones; with at most 30
  // tasks per case the whole visible set fits, which is what the index would hold.
  const index = visible.slice(0, INDEX_RECENT + 10);
  let d = router(m.text, index, NOW);
  if (d.outcome === 'NEW_TASK') {
    const running = visible.filter((e) => LIVE.includes(e.status) && e.kind === 'PERSISTENT').slice(0, 50);
    const dup = likelyDuplicate(m.text, running, NOW);
    if (dup) d = asDuplicateQuestion(d, dup);
  }
  return d;
}

export type EvalResult = {
  total: number;
  correct: number;
  perOutcome: Record<string, { cases: number; correct: number }>;
  wrongTask: number;
  clarifications: number;
  failures: { id: string; expected: string; got: string; reason: string }[];
};

export function evaluate(cases: RoutingCase[], router: Router = routeOffline): EvalResult {
  const r: EvalResult = { total: cases.length, correct: 0, perOutcome: {}, wrongTask: 0, clarifications: 0, failures: [] };
  for (const c of cases) {
    const d = routeCase(c, router);
    const exp = c.expected;
    const ok = d.outcome === exp.outcome && (exp.outcome !== 'EXISTING_TASK' || d.taskId === exp.taskKey);
    const bucket = (r.perOutcome[exp.outcome] ??= { cases: 0, correct: 0 });
    bucket.cases++;
    if (ok) {
      bucket.correct++;
      r.correct++;
    } else {
      r.failures.push({ id: c.id, expected: `${exp.outcome}${exp.taskKey ? `:${exp.taskKey}` : ''}`, got: `${d.outcome}${d.taskId ? `:${d.taskId}` : ''}`, reason: d.reason });
    }
    if (d.outcome === 'EXISTING_TASK' && d.taskId !== exp.taskKey) r.wrongTask++;
    if (d.outcome === 'CLARIFY') r.clarifications++;
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
  return out;
}

export const SETS = [
  { name: 'development', file: DEFAULT_CASES_FILE, floors: ROUTING_FLOORS.development },
  { name: 'held-out', file: HELDOUT_CASES_FILE, floors: ROUTING_FLOORS.heldout },
] as const;

export function loadSet(file: string): RoutingCase[] {
  const v = validateCases(loadCases(file), coverageFor(file));
  if (v.problems.length) throw new Error(`${file}:\n${v.problems.join('\n')}`);
  return v.cases;
}

function print(name: string, file: string, r: SetResult, floors: RoutingFloors, quiet: boolean): string[] {
  const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : 'n/a');
  const f = (x: number | undefined) => (x === undefined ? '' : `${Math.round(100 * x)}%`);
  const j = r.judgement;
  const d = r.deterministic;
  console.log(`\n${name} set — ${file.split('/').pop()}: ${j.total + d.total} cases (${d.total} deterministic, ${j.total} judgement)`);
  console.log('judgement cases    cases  correct  accuracy  floor');
  for (const o of OUTCOMES) {
    const b = j.perOutcome[o] ?? { cases: 0, correct: 0 };
    console.log(`  ${o.padEnd(16)} ${String(b.cases).padStart(5)}  ${String(b.correct).padStart(7)}  ${pct(b.correct, b.cases).padStart(8)}  ${f(floors.perOutcome[o]).padStart(5)}`);
  }
  console.log(`  ${'all judgement'.padEnd(16)} ${String(j.total).padStart(5)}  ${String(j.correct).padStart(7)}  ${pct(j.correct, j.total).padStart(8)}  ${f(floors.judgement).padStart(5)}`);
  console.log(`deterministic      ${String(d.total).padStart(5)}  ${String(d.correct).padStart(7)}  ${pct(d.correct, d.total).padStart(8)}  ${f(floors.deterministic).padStart(5)}`);
  console.log(`all cases          ${String(j.total + d.total).padStart(5)}  ${String(j.correct + d.correct).padStart(7)}  ${pct(j.correct + d.correct, j.total + d.total).padStart(8)}`);
  console.log(`wrong-task routes (judgement)  ${pct(j.wrongTask, j.total)} (${j.wrongTask}), ceiling ${f(floors.maxWrongTaskRate)} — a message delivered to the wrong task`);
  console.log(`clarifications asked           ${pct(j.clarifications + d.clarifications, j.total + d.total)} (${j.clarifications + d.clarifications})`);
  if (!quiet && j.failures.length + d.failures.length) {
    console.log('failing:');
    for (const x of [...d.failures, ...j.failures]) console.log(`  ${x.id}: expected ${x.expected}, got ${x.got} (${x.reason})`);
  }
  return belowFloors(r, floors).map((p) => `${name}: ${p}`);
}

function main() {
  const quiet = process.argv.includes('--quiet');
  console.log('routing evaluation — offline router (no model configured)');
  const misses: string[] = [];
  const summary: Record<string, unknown> = {};
  for (const s of SETS) {
    let cases: RoutingCase[];
    try {
      cases = loadSet(s.file);
    } catch (e) {
      console.error(e instanceof Error ? e.message : String(e));
      process.exit(1);
    }
    const r = scoreSet(cases, routeOffline);
    misses.push(...print(s.name, s.file, r, s.floors, quiet));
    summary[s.name] = {
      deterministic: { total: r.deterministic.total, correct: r.deterministic.correct },
      judgement: { total: r.judgement.total, correct: r.judgement.correct, wrongTask: r.judgement.wrongTask, perOutcome: r.judgement.perOutcome },
    };
  }
  console.log(`\nEVAL_RESULT ${JSON.stringify(summary)}`);
  if (misses.length) {
    console.error(`\n✖ below the floors (test/eval/floors.ts):\n${misses.map((m) => `  - ${m}`).join('\n')}`);
    process.exit(1);
  }
  console.log('\n✓ every figure at or above its floor');
}

if (process.argv[1]?.endsWith('routing.ts')) main();
