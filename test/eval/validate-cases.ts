// Validates the routing evaluation sets: test/eval/routing-cases.json (development) and
// test/eval/routing-heldout.json (held-out; a `{ "note": [...], "cases": [...] }` wrapper around the
// same case format, the note saying how it must be treated).
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
import { z } from 'zod';

export const OUTCOMES = ['ANSWER', 'LIGHTWEIGHT_TASK', 'EXISTING_TASK', 'NEW_TASK', 'CLARIFY'] as const;
export const TASK_STATUSES = ['QUEUED', 'RUNNING', 'WAITING', 'PAUSED', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export const TASK_KINDS = ['PERSISTENT', 'LIGHTWEIGHT'] as const;
/** Tags that name a language of the message text (a mixed-language message carries several). */
export const LANGUAGE_TAGS = ['en', 'de', 'zh', 'ja', 'fr', 'es', 'it', 'pt', 'nl', 'ko'] as const;

/** A "recently active" task for deictic references ("make that one blue"). */
const RECENT_HOURS = 2;
/** With exactly one recent task, every other open task must be at least this old. */
const OTHERS_MIN_HOURS = 6;
const DAYS_LATER_MIN_HOURS = 48;
const DAYS_LATER_MAX_HOURS = 500;

export type Coverage = { minCases: number; minPerOutcome: number; minPerTag: Record<string, number> };

/** What the development set promises. */
export const COVERAGE: Coverage = {
  minCases: 90,
  minPerOutcome: 10,
  minPerTag: {
    de: 15,
    zh: 15,
    ja: 2,
    fr: 2,
    'multi-task': 60,
    'follow-up-days-later': 10,
    deictic: 8,
    'parallel-series': 10,
    'cross-language': 8,
    'near-duplicate': 4,
    'explicit-task': 3,
    'card-action': 3,
    'object-context': 4,
    archived: 3,
    'completed-task': 3,
  },
};

/** What the held-out set promises: smaller, but every outcome and six languages plus mixed messages. */
export const HELDOUT_COVERAGE: Coverage = {
  minCases: 60,
  minPerOutcome: 10,
  minPerTag: {
    en: 10,
    de: 10,
    fr: 6,
    es: 6,
    zh: 6,
    ja: 6,
    'mixed-language': 6,
    'multi-task': 40,
    'follow-up-days-later': 6,
    deictic: 6,
    'parallel-series': 6,
    'cross-language': 4,
    'near-duplicate': 3,
    'explicit-task': 3,
    'card-action': 3,
    'object-context': 3,
    archived: 3,
    'completed-task': 3,
  },
};

const kebab = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be kebab-case');
const oneLine = z.string().trim().min(1).regex(/^[^\n\r]*$/, 'must be a single line');

export const taskSchema = z.strictObject({
  key: kebab,
  title: oneLine,
  goal: oneLine,
  summary: z.string().regex(/^[^\n\r]*$/, 'must be a single line'),
  status: z.enum(TASK_STATUSES),
  kind: z.enum(TASK_KINDS),
  archived: z.boolean(),
  language: z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]+)*$/, 'must be a language code like "en" or "zh-Hant"'),
  lastActivityHoursAgo: z.number().nonnegative(),
  objects: z.array(kebab),
});

export const cardActionSchema = z.strictObject({
  cardTaskKey: kebab,
  choice: z.enum(['continue', 'create']),
});

export const messageSchema = z.strictObject({
  text: z.string().trim().min(1),
  taskKey: kebab.nullable(),
  objectKey: kebab.nullable(),
  cardAction: cardActionSchema.nullable(),
});

export const expectedSchema = z.strictObject({
  outcome: z.enum(OUTCOMES),
  taskKey: kebab.optional(),
});

export const routingCaseSchema = z.strictObject({
  id: kebab,
  description: oneLine,
  tags: z.array(kebab).min(1),
  tasks: z.array(taskSchema).max(30),
  message: messageSchema,
  expected: expectedSchema,
});

export type RoutingTask = z.infer<typeof taskSchema>;
export type RoutingCase = z.infer<typeof routingCaseSchema>;
export type Outcome = (typeof OUTCOMES)[number];

export interface ValidationResult {
  cases: RoutingCase[];
  problems: string[];
}

const isLanguageTag = (tag: string): boolean => (LANGUAGE_TAGS as readonly string[]).includes(tag);

/** The route a case's message must take without any judgement, or null when judgement is needed. */
export function deterministicRoute(c: RoutingCase): { outcome: Outcome; taskKey?: string } | null {
  const { taskKey, cardAction, objectKey } = c.message;
  if (taskKey !== null) return { outcome: 'EXISTING_TASK', taskKey };
  if (cardAction !== null) {
    return cardAction.choice === 'create'
      ? { outcome: 'NEW_TASK' }
      : { outcome: 'EXISTING_TASK', taskKey: cardAction.cardTaskKey };
  }
  if (objectKey !== null) {
    const owners = c.tasks.filter((t) => t.objects.includes(objectKey));
    if (owners.length === 1 && owners[0]) return { outcome: 'EXISTING_TASK', taskKey: owners[0].key };
    if (owners.length > 1) return { outcome: 'CLARIFY' };
  }
  return null;
}

function checkCase(c: RoutingCase): string[] {
  const problems: string[] = [];
  const taskByKey = new Map<string, RoutingTask>();
  for (const t of c.tasks) {
    if (taskByKey.has(t.key)) problems.push(`duplicate task key "${t.key}"`);
    taskByKey.set(t.key, t);
    if (new Set(t.objects).size !== t.objects.length) problems.push(`task "${t.key}" lists an object twice`);
  }
  const allObjects = new Set(c.tasks.flatMap((t) => t.objects));
  const tags = new Set(c.tags);
  if (tags.size !== c.tags.length) problems.push('duplicate tag');
  const { message, expected } = c;

  // References.
  if (message.taskKey !== null && !taskByKey.has(message.taskKey)) {
    problems.push(`message.taskKey "${message.taskKey}" is not a task of this case`);
  }
  if (message.objectKey !== null && !allObjects.has(message.objectKey)) {
    problems.push(`message.objectKey "${message.objectKey}" is not referenced by any task of this case`);
  }
  if (message.cardAction !== null && !taskByKey.has(message.cardAction.cardTaskKey)) {
    problems.push(`message.cardAction.cardTaskKey "${message.cardAction.cardTaskKey}" is not a task of this case`);
  }
  if (expected.outcome === 'EXISTING_TASK') {
    if (expected.taskKey === undefined) problems.push('expected.taskKey is required for EXISTING_TASK');
    else if (!taskByKey.has(expected.taskKey)) problems.push(`expected.taskKey "${expected.taskKey}" is not a task of this case`);
  } else if (expected.taskKey !== undefined) {
    problems.push(`expected.taskKey must be absent for ${expected.outcome}`);
  }
  if (problems.length > 0) return problems;

  const target = expected.taskKey === undefined ? undefined : taskByKey.get(expected.taskKey);
  const explicit = message.taskKey !== null || message.cardAction !== null || message.objectKey !== null;

  // Deterministic routes.
  const route = deterministicRoute(c);
  if (route && (route.outcome !== expected.outcome || route.taskKey !== expected.taskKey)) {
    const want = route.taskKey ? `${route.outcome} ${route.taskKey}` : route.outcome;
    problems.push(`deterministic route is ${want}, but expected is ${expected.outcome}${expected.taskKey ? ` ${expected.taskKey}` : ''}`);
  }
  if (!explicit && target?.archived) {
    problems.push(`archived task "${target.key}" is not a routing candidate unless addressed explicitly`);
  }

  // Tags that mirror the message.
  const mirror: Array<[string, boolean]> = [
    ['explicit-task', message.taskKey !== null],
    ['card-action', message.cardAction !== null],
    ['object-context', message.objectKey !== null],
  ];
  for (const [tag, present] of mirror) {
    if (present && !tags.has(tag)) problems.push(`missing tag "${tag}"`);
    if (!present && tags.has(tag)) problems.push(`tag "${tag}" but the message has no such context`);
  }

  // Languages.
  const messageLanguages = c.tags.filter(isLanguageTag);
  if (messageLanguages.length === 0) problems.push(`needs a message-language tag (${LANGUAGE_TAGS.join(', ')})`);
  if (tags.has('mixed-language') && messageLanguages.length < 2) problems.push('"mixed-language" needs two language tags');
  const foreign = c.tasks.filter((t) => !messageLanguages.includes(t.language));
  if (expected.outcome === 'EXISTING_TASK' && target && !messageLanguages.includes(target.language) && !tags.has('cross-language')) {
    problems.push(`target task language "${target.language}" differs from the message: tag "cross-language"`);
  }
  if (tags.has('cross-language') && foreign.length === 0) problems.push('"cross-language" but every task is in the message language');

  // Workspace shape.
  const n = c.tasks.length;
  if (tags.has('multi-task') && (n < 5 || n > 30)) problems.push(`"multi-task" needs 5–30 tasks, has ${n}`);
  if (!tags.has('multi-task') && n >= 5) problems.push(`${n} tasks: tag "multi-task"`);
  if (tags.has('small-workspace') && n >= 5) problems.push('"small-workspace" needs fewer than 5 tasks');
  if (tags.has('empty-workspace') && n !== 0) problems.push('"empty-workspace" needs 0 tasks');
  const needsStatus: Array<[string, (t: RoutingTask) => boolean]> = [
    ['archived', (t) => t.archived],
    ['completed-task', (t) => t.status === 'COMPLETED'],
    ['failed-task', (t) => t.status === 'FAILED'],
    ['cancelled-task', (t) => t.status === 'CANCELLED'],
    ['lightweight-history', (t) => t.kind === 'LIGHTWEIGHT'],
  ];
  for (const [tag, has] of needsStatus) {
    if (tags.has(tag) && !c.tasks.some(has)) problems.push(`tag "${tag}" but no such task`);
  }

  // Outcome-bound tags.
  if (tags.has('near-duplicate') && expected.outcome !== 'EXISTING_TASK') problems.push('"near-duplicate" cases go to the existing task');
  if (tags.has('near-duplicate-trap') && expected.outcome === 'EXISTING_TASK') problems.push('"near-duplicate-trap" cases must not go to an existing task');

  // Follow-ups days later.
  if (tags.has('follow-up-days-later')) {
    const inRange = (t: RoutingTask) =>
      t.lastActivityHoursAgo >= DAYS_LATER_MIN_HOURS && t.lastActivityHoursAgo <= DAYS_LATER_MAX_HOURS;
    if (target ? !inRange(target) : !c.tasks.some((t) => !t.archived && inRange(t))) {
      problems.push(`"follow-up-days-later" needs the ${target ? 'target task' : 'referenced task'} idle ${DAYS_LATER_MIN_HOURS}–${DAYS_LATER_MAX_HOURS} h`);
    }
  }

  // Deictic references resolved by recency only (no panel, card or viewed object).
  if (tags.has('deictic') && !explicit) {
    const open = c.tasks.filter((t) => !t.archived);
    const recent = open.filter((t) => t.lastActivityHoursAgo <= RECENT_HOURS);
    if (expected.outcome === 'EXISTING_TASK' && target) {
      const othersOld = open.every((t) => t === target || t.lastActivityHoursAgo >= OTHERS_MIN_HOURS);
      if (recent.length !== 1 || recent[0] !== target || !othersOld) {
        problems.push(`deictic EXISTING_TASK needs the target as the only task active within ${RECENT_HOURS} h and all others idle ≥ ${OTHERS_MIN_HOURS} h`);
      }
    } else if (expected.outcome === 'CLARIFY' && recent.length < 2) {
      problems.push(`deictic CLARIFY needs at least two tasks active within ${RECENT_HOURS} h`);
    }
  }
  return problems;
}

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
  for (const o of ['EXISTING_TASK', 'CLARIFY'] as const) {
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

export const coverageFor = (file: string): Coverage => (resolve(file) === HELDOUT_CASES_FILE ? HELDOUT_COVERAGE : COVERAGE);

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
