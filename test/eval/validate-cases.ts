// Validates the routing evaluation sets: test/eval/routing-cases.json (development),
// test/eval/routing-heldout.json and test/eval/routing-heldout-2.json (held-out; a
// `{ "note": [...], "cases": [...] }` wrapper around the same case format, the note saying how it
// must be treated).
//
//   npx tsx test/eval/validate-cases.ts [path/to/cases.json]
//
// Checks the schema (zod), unique ids, that every referenced task/object key exists, that
// `expected.taskKey` is present iff the outcome is EXISTING_TASK, that the deterministic routes
// (task panel, clarification card, viewed object) are labelled as the routing rules say, that tags
// agree with the case data, and that the set covers what it promises. Prints counts per outcome and
// per tag; exits 1 on any problem. The schema and `validateCases` are exported for eval harnesses.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkCase } from './routing-case-checks.ts';
import { OUTCOMES, routingCaseSchema, type Outcome, type RoutingCase, type ValidationResult } from './routing-case-schema.ts';
import { COVERAGE, HELDOUT2_COVERAGE, HELDOUT_COVERAGE, type Coverage } from './routing-coverage.ts';

// The case format, the checks of one case and the coverage promises live beside this file; they
// are re-exported here for the eval harnesses.
export { deterministicRoute } from './routing-case-checks.ts';
export {
  cardActionSchema,
  expectedSchema,
  INTENTS,
  LANGUAGE_TAGS,
  messageSchema,
  OUTCOMES,
  routingCaseSchema,
  TASK_KINDS,
  TASK_STATUSES,
  taskSchema,
  type Outcome,
  type RoutingCase,
  type RoutingTask,
  type ValidationResult,
} from './routing-case-schema.ts';
export { COVERAGE, HELDOUT2_COVERAGE, HELDOUT_COVERAGE, type Coverage } from './routing-coverage.ts';

export function validateCases(raw: unknown, coverage: Coverage = COVERAGE): ValidationResult {
  if (!Array.isArray(raw)) return { cases: [], problems: ['(root): expected a JSON array of cases'] };
  const cases: RoutingCase[] = [];
  const problems: string[] = [];
  raw.forEach((item: unknown, index) => {
    const parsed = routingCaseSchema.safeParse(item);
    if (parsed.success) {
      cases.push(parsed.data);
      return;
    }
    const id = (item as { id?: unknown } | null)?.id;
    const label = typeof id === 'string' ? id : `#${index}`;
    for (const issue of parsed.error.issues) {
      problems.push(`[${label}] ${issue.path.map(String).join('.') || '(case)'}: ${issue.message}`);
    }
  });
  const seen = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.id)) problems.push(`[${c.id}] duplicate id`);
    seen.add(c.id);
    for (const p of checkCase(c)) problems.push(`[${c.id}] ${p}`);
  }
  if (cases.length < raw.length) return { cases, problems };

  // Coverage of the whole set.
  if (cases.length < coverage.minCases) problems.push(`coverage: ${cases.length} cases, need ≥ ${coverage.minCases}`);
  const outcomes = countOutcomes(cases);
  for (const o of OUTCOMES) {
    if ((outcomes.get(o) ?? 0) < coverage.minPerOutcome) {
      problems.push(`coverage: ${outcomes.get(o) ?? 0} ${o} cases, need ≥ ${coverage.minPerOutcome}`);
    }
  }
  const tagCounts = countTags(cases);
  for (const [tag, min] of Object.entries(coverage.minPerTag)) {
    if ((tagCounts.get(tag) ?? 0) < min) problems.push(`coverage: ${tagCounts.get(tag) ?? 0} cases tagged "${tag}", need ≥ ${min}`);
  }
  for (const o of coverage.deictic === false ? [] : (['EXISTING_TASK', 'CLARIFY'] as const)) {
    if (!cases.some((c) => c.expected.outcome === o && c.tags.includes('deictic'))) {
      problems.push(`coverage: no deictic ${o} case`);
    }
  }
  return { cases, problems };
}

export function countOutcomes(cases: RoutingCase[]): Map<Outcome, number> {
  const counts = new Map<Outcome, number>(OUTCOMES.map((o) => [o, 0]));
  for (const c of cases) counts.set(c.expected.outcome, (counts.get(c.expected.outcome) ?? 0) + 1);
  return counts;
}

export function countTags(cases: RoutingCase[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of cases) for (const t of new Set(c.tags)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** The cases of a file: a JSON array, or the `cases` of a `{ note, cases }` wrapper. */
export function loadCases(file: string): unknown {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (raw && typeof raw === 'object' && !Array.isArray(raw) && 'cases' in raw) return (raw as { cases: unknown }).cases;
  return raw;
}

export const DEFAULT_CASES_FILE = fileURLToPath(new URL('./routing-cases.json', import.meta.url));
export const HELDOUT_CASES_FILE = fileURLToPath(new URL('./routing-heldout.json', import.meta.url));
export const HELDOUT2_CASES_FILE = fileURLToPath(new URL('./routing-heldout-2.json', import.meta.url));

export const coverageFor = (file: string): Coverage =>
  resolve(file) === HELDOUT_CASES_FILE ? HELDOUT_COVERAGE : resolve(file) === HELDOUT2_CASES_FILE ? HELDOUT2_COVERAGE : COVERAGE;

function main(): void {
  const file = process.argv[2] ? resolve(process.argv[2]) : DEFAULT_CASES_FILE;
  let raw: unknown;
  try {
    raw = loadCases(file);
  } catch (err) {
    console.error(`cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  const { cases, problems } = validateCases(raw, coverageFor(file));
  if (cases.length > 0) {
    const pad = (s: string, w: number) => s.padEnd(w);
    console.log(`${cases.length} cases in ${file}`);
    console.log('\nper outcome:');
    for (const [o, n] of countOutcomes(cases)) console.log(`  ${pad(o, 22)} ${n}`);
    console.log('\nper tag:');
    const tags = [...countTags(cases)].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    for (const [t, n] of tags) console.log(`  ${pad(t, 22)} ${n}`);
  }
  if (problems.length > 0) {
    console.error(`\n${problems.length} problem(s):`);
    for (const p of problems) console.error(`  - ${p}`);
    process.exit(1);
  }
  console.log('\nOK');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
