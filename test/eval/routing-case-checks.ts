// Checks of one routing case beyond its schema: task and object keys that exist, deterministic
// routes labelled as the routing rules say, tags that agree with the case data (languages, recency
// for deictic references, idle time for follow-ups days later).
import { LANGUAGE_TAGS, type Outcome, type RoutingCase, type RoutingTask } from './routing-case-schema.ts';

/** A "recently active" task for deictic references ("make that one blue"). */
const RECENT_HOURS = 2;
/** With exactly one recent task, every other open task must be at least this old. */
const OTHERS_MIN_HOURS = 6;
const DAYS_LATER_MIN_HOURS = 48;
const DAYS_LATER_MAX_HOURS = 500;

const FINISHED: string[] = ['COMPLETED', 'FAILED', 'CANCELLED'];

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

export function checkCase(c: RoutingCase): string[] {
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
  for (const t of c.tasks) {
    if (t.createdHoursAgo !== undefined && t.createdHoursAgo < t.lastActivityHoursAgo) problems.push(`task "${t.key}" was created after its last activity`);
    if (t.endedHoursAgo !== undefined && !FINISHED.includes(t.status)) problems.push(`task "${t.key}" has endedHoursAgo but is ${t.status}`);
    if (t.endedHoursAgo !== undefined && t.createdHoursAgo !== undefined && t.endedHoursAgo > t.createdHoursAgo) problems.push(`task "${t.key}" ended before it was created`);
    if (t.archivedHoursAgo !== undefined && !t.archived) problems.push(`task "${t.key}" has archivedHoursAgo but is not archived`);
    for (const k of Object.keys(t.objectNames ?? {})) if (!t.objects.includes(k)) problems.push(`task "${t.key}" names object "${k}" it does not list`);
  }
  const signal = expected.intent === 'CANCEL' || expected.intent === 'PAUSE' || expected.intent === 'RESUME';
  if (signal && expected.outcome !== 'EXISTING_TASK' && expected.outcome !== 'CLARIFY') problems.push(`intent ${expected.intent} needs EXISTING_TASK or CLARIFY`);
  if (expected.intent === 'STATUS' && expected.outcome !== 'EXISTING_TASK' && expected.outcome !== 'ANSWER' && expected.outcome !== 'CLARIFY') problems.push('intent STATUS needs EXISTING_TASK, ANSWER or CLARIFY');
  if (expected.intent === 'REMEMBER' && expected.outcome !== 'ANSWER') problems.push('intent REMEMBER needs ANSWER');
  if (expected.seedTaskKey !== undefined) {
    if (expected.outcome !== 'NEW_TASK') problems.push('expected.seedTaskKey needs NEW_TASK');
    if (!taskByKey.has(expected.seedTaskKey)) problems.push(`expected.seedTaskKey "${expected.seedTaskKey}" is not a task of this case`);
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

  // Tags of the failure classes of routing that reads the work.
  const tagRules: Array<[string, boolean, string]> = [
    ['next-edition', expected.seedTaskKey !== undefined, 'needs expected.seedTaskKey'],
    ['casual-signal', signal, 'needs a CANCEL, PAUSE or RESUME intent'],
    ['remember', expected.intent === 'REMEMBER', 'needs intent REMEMBER'],
    ['quick-one-off', expected.outcome === 'LIGHTWEIGHT_TASK', 'needs LIGHTWEIGHT_TASK'],
    ['similar-recent', expected.outcome === 'CLARIFY' && c.tasks.filter((t) => !t.archived && t.lastActivityHoursAgo <= 48).length >= 2, 'needs CLARIFY and two tasks active within 48 h'],
    ['finished-follow-up', !!target && FINISHED.includes(target.status), 'needs a finished target task'],
    ['date-reference', c.tasks.some((t) => t.createdHoursAgo !== undefined || t.endedHoursAgo !== undefined), 'needs a task with createdHoursAgo or endedHoursAgo'],
    ['object-name', c.tasks.some((t) => t.objectNames !== undefined || (t.results ?? []).length > 0), 'needs a task with objectNames or results'],
  ];
  for (const [tag, ok, why] of tagRules) if (tags.has(tag) && !ok) problems.push(`tag "${tag}" ${why}`);
  if (expected.intent === 'STATUS' && expected.outcome === 'EXISTING_TASK' && !tags.has('status-question')) problems.push('a STATUS route needs tag "status-question"');

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
