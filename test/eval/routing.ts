// npm run eval:routing — runs the committed, labelled routing cases through the router the product
// uses when no model is configured (deterministic routes, then the offline router over the task
// index, then the duplicate check), and prints accuracy per outcome, the wrong-task rate (the
// costly error) and the clarification rate. The index is built from each case's tasks exactly as
// loadTaskIndex would (archived excluded, most recent first), without a database.
// Never fails on accuracy: the figures are the result. Exits 1 only if the cases are invalid.
import { routeDeterministic } from '../../server/routing/deterministic.ts';
import { asDuplicateQuestion, likelyDuplicate, routeOffline } from '../../server/routing/offline-router.ts';
import { INDEX_RECENT, type RouteDecision, type TaskIndexEntry } from '../../server/routing/types.ts';
import { DEFAULT_CASES_FILE, loadCases, validateCases, type RoutingCase } from './validate-cases.ts';

const NOW = new Date('2026-11-29T12:00:00Z');
const LIVE = ['QUEUED', 'RUNNING', 'WAITING', 'PAUSED'];

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

export function routeCase(c: RoutingCase): RouteDecision {
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
  let d = routeOffline(m.text, index, NOW);
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

export function evaluate(cases: RoutingCase[]): EvalResult {
  const r: EvalResult = { total: cases.length, correct: 0, perOutcome: {}, wrongTask: 0, clarifications: 0, failures: [] };
  for (const c of cases) {
    const d = routeCase(c);
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

function main() {
  const v = validateCases(loadCases(DEFAULT_CASES_FILE));
  if (v.problems.length) {
    console.error(v.problems.join('\n'));
    process.exit(1);
  }
  const r = evaluate(v.cases);
  const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : 'n/a');
  console.log(`routing evaluation — offline router, ${r.total} labelled cases\n`);
  console.log('expected outcome   cases  correct  accuracy');
  for (const [k, b] of Object.entries(r.perOutcome).sort()) {
    console.log(`${k.padEnd(18)} ${String(b.cases).padStart(5)}  ${String(b.correct).padStart(7)}  ${pct(b.correct, b.cases).padStart(8)}`);
  }
  console.log(`\noverall accuracy        ${pct(r.correct, r.total)} (${r.correct}/${r.total})`);
  console.log(`wrong-task routes       ${pct(r.wrongTask, r.total)} (${r.wrongTask}) — a message delivered to the wrong task`);
  console.log(`clarifications asked    ${pct(r.clarifications, r.total)} (${r.clarifications})`);
  if (!process.argv.includes('--quiet')) {
    console.log('\nstill failing:');
    for (const f of r.failures) console.log(`  ${f.id}: expected ${f.expected}, got ${f.got} (${f.reason})`);
  }
  console.log(`\nEVAL_RESULT ${JSON.stringify({ total: r.total, correct: r.correct, wrongTask: r.wrongTask, clarifications: r.clarifications, perOutcome: r.perOutcome })}`);
}

if (process.argv[1]?.endsWith('routing.ts')) main();
