// Episodic memory, read: what happened in earlier phases of work (memory_summaries: one user, one
// task or the thread, one UTC day; each sentence rests on a memory version and its evidence), found
// by task, subject and time, always with citations (the sentence, its summary, its sources).
//
// A text ("what did we settle on for the coffee posters last week?", "was haben wir letzte Woche
// für die Kaffee-Poster entschieden?") is read twice: the time it names becomes a window of days
// (yesterday, last week, in March… in EN, DE, FR, ES, ZH, JA: routing/dates.ts and the months
// below), and the words left (the vocabulary of asking and deciding taken out) must meet the
// episode: its value, its subject, or the title and brief of the task it happened in. A text that
// names neither a time nor anything an episode has finds nothing, as memory retrieval does.
// Forgetting deletes the sentences resting on a forgotten source (forget.ts); the store's query
// also refuses any sentence whose version is FORGOTTEN or whose source is REVOKED.
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { PrismaClient } from '../../db/client.ts';
import { detectLanguage } from '../../domain/language.ts';
import { badInput, notFound } from '../../errors.ts';
import { dateSpans } from '../../routing/dates.ts';
import { CJK, features, featureWeight, normalize } from '../../routing/text.ts';
import { episodeCandidates, type EpisodeRow } from '../../store/memory/episodes.ts';

/** With a text, relevance is decided on at most this many candidates (newest first). */
export const EPISODE_CANDIDATES = 1000;
/** The longest text a query may be (the API refuses longer ones). */
export const MAX_EPISODE_QUERY = 300;

export type EpisodeWindow = { from: Date; to: Date; phrase: string | null };
export type EpisodeCitation = { evidenceId: string; kind: string; messageId: string | null; occurredAt: Date; excerpt: string };
export type RetrievedEpisode = {
  sentenceId: string;
  summaryId: string;
  phaseKey: string;
  /** The phase's UTC day. */
  day: Date;
  taskId: string | null;
  taskTitle: string | null;
  versionId: string;
  memoryId: string;
  subjectKey: string;
  value: string;
  origin: string;
  /** The summary's sentence ("The user noted: Prefers warm terracotta colors."). */
  text: string;
  /** What the sentence rests on (memory_summary_sentences.evidence_ids), all still ACTIVE. */
  evidenceIds: string[];
  citations: EpisodeCitation[];
  recordedAt: Date;
  score: number;
};

export type EpisodeQuery = {
  workspaceId: string;
  userId: string;
  /** Free text: the time it names (unless `from`/`to` are given) and the words an episode must meet. */
  text?: string | null;
  /** Read the time a text names (true by default; a task's brief is no question about a time). */
  readTime?: boolean;
  taskId?: string | null;
  /** Exact subject key, or a prefix ending in ".". */
  subject?: string | null;
  from?: Date | null;
  to?: Date | null;
  /** "Now" for relative times (tests pin it). */
  now?: Date;
  limit?: number;
  offset?: number;
  /** With a text: how many of the newest candidates relevance is decided on (EPISODE_CANDIDATES by default). */
  candidates?: number;
  /** Leave out what a correction replaced ("that was wrong" is no earlier decision to build on). */
  excludeCorrected?: boolean;
};

// Month names (normalized: lower case, accents folded) after a preposition, so "may" the verb and
// "mars" the planet's neighbour words are not months by themselves: "in March", "im März", "en
// mars", "au mois de mars", "en marzo"; and "3月", "三月", "十二月" in Chinese and Japanese.
const MONTHS: string[][] = [
  ['january', 'jan', 'januar', 'janvier', 'enero'],
  ['february', 'feb', 'februar', 'fevrier', 'febrero'],
  ['march', 'mar', 'marz', 'mars', 'marzo'],
  ['april', 'apr', 'avril', 'abril'],
  ['may', 'mai', 'mayo'],
  ['june', 'jun', 'juni', 'juin', 'junio'],
  ['july', 'jul', 'juli', 'juillet', 'julio'],
  ['august', 'aug', 'aout', 'agosto'],
  ['september', 'sep', 'sept', 'septembre', 'septiembre', 'setiembre'],
  ['october', 'oct', 'oktober', 'octobre', 'octubre'],
  ['november', 'nov', 'novembre', 'noviembre'],
  ['december', 'dec', 'dezember', 'decembre', 'diciembre'],
];
const MONTH_OF = new Map(MONTHS.flatMap((names, i) => names.map((n) => [n, i] as const)));
const MONTH_WORD = new RegExp(`\\b(?:in|im|during|back in|en|au mois de|en el mes de|durante|a principios de|a finales de)\\s+(${[...MONTH_OF.keys()].join('|')})\\b`, 'u');
const CJK_NUM: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10, 十一: 11, 十二: 12 };
const MONTH_CJK = /(?<![上下这這本今先来來毎每])(1[0-2]|[1-9]|十[一二]?|[一二三四五六七八九])\s?月(?!曜|份以来)/u;

/** The most recent month of that number that has begun: [its first day, the next month's) — up to now. */
function monthSpan(month: number, now: Date): { from: Date; to: Date } {
  const year = month <= now.getUTCMonth() ? now.getUTCFullYear() : now.getUTCFullYear() - 1;
  const from = new Date(Date.UTC(year, month, 1));
  const to = new Date(Math.min(now.getTime(), Date.UTC(year, month + 1, 1)));
  return { from, to };
}

/**
 * The window of days a text names, and the text without the phrase: yesterday, last week, last
 * month, a weekday, "3 days ago" (routing/dates.ts), French "hier", and a month ("in March", "im März", "en mars",
 * "en marzo", "三月", "3月"). Several phrases: the span that covers them all. Pure.
 */
export function timeWindow(text: string, now: Date): { window: EpisodeWindow | null; rest: string } {
  const { spans, rest: afterDates } = dateSpans(normalize(text), now);
  let rest = afterDates;
  const found = spans.map((s) => ({ from: s.from, to: s.to, phrase: s.phrase }));
  // French "hier" alone (German "hier" is "here"): yesterday when the text is French.
  const hier = rest.match(/\bhier\b/u);
  if (hier && detectLanguage(text).language === 'fr') {
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    found.push({ from: new Date(today - 86_400_000), to: new Date(today), phrase: hier[0] });
    rest = rest.replace(hier[0], ' ');
  }
  const word = rest.match(MONTH_WORD);
  if (word) {
    found.push({ ...monthSpan(MONTH_OF.get(word[1]!)!, now), phrase: word[0] });
    rest = rest.replace(word[0], ' ');
  }
  const cjk = rest.match(MONTH_CJK);
  if (cjk) {
    const m = /^\d+$/.test(cjk[1]!) ? Number(cjk[1]) : CJK_NUM[cjk[1]!]!;
    found.push({ ...monthSpan(m - 1, now), phrase: cjk[0] });
    rest = rest.replace(cjk[0], ' ');
  }
  rest = rest.replace(/\s+/g, ' ').trim();
  if (!found.length) return { window: null, rest };
  const from = new Date(Math.min(...found.map((s) => s.from.getTime())));
  const to = new Date(Math.max(...found.map((s) => s.to.getTime())));
  return { window: { from, to, phrase: found.map((s) => s.phrase).join(', ') }, rest };
}

// The words of asking about earlier work and of deciding, in the six languages: they say that the
// person asks, not what about. Taken out before an episode is matched.
const ASKING =
  'settle settled settling decide decided deciding decision decisions agree agreed choose chose chosen pick picked went go land landed use used ' +
  'earlier before previously time work worked say said tell told remind remember about happen happened last ' +
  'entschieden entscheiden entscheidung beschlossen vereinbart festgelegt gewahlt ausgesucht genommen gesagt hatten habt haben hattest gemacht damals ' +
  'decide decidee decidees decides decision choisi choisie choisis convenu retenu avons avez nous vous quoi fait dit ' +
  'decidimos decidido decidiste decision elegimos elegido acordamos acordado escogimos usamos hicimos dijimos que';
const ASKING_FEATURES = features(ASKING);
// Chinese and Japanese have no spaces: these are cut out of the text before it is read.
const ASKING_CJK = /我们|我們|咱们|决定|決定|定了|选了|選了|用了|什么|甚麼|之前|上次|当时|決め|選ん|使った|前回|ました|ましたか|何を|何に|でしたか|ですか/gu;

/** The features of a text an episode must meet: its words without the vocabulary of asking. */
export function episodeTerms(text: string): Set<string> {
  const out = features(text.replace(ASKING_CJK, ' '));
  for (const f of ASKING_FEATURES) if (!f.startsWith('§')) out.delete(f);
  // A kana or character left alone (a particle: "に", "か") names nothing.
  for (const f of out) if ([...f].length === 1 && CJK.test(f)) out.delete(f);
  return out;
}

/**
 * Whether a question asks about earlier work: a past-tense decision or use, "earlier", "last time",
 * in the six languages, or a time it names ("… last week?"). Pure.
 */
export const EARLIER_WORK =
  /\b(did (we|i|you)|have we|had we|we (decided|settled|agreed|chose|picked|went with|used|said)|what was|what were|earlier|last time|previously|haben wir|hatten wir|habe ich|hatte ich|entschieden|beschlossen|vereinbart|festgelegt|ausgesucht|gewahlt|avons nous|avait on|a t on|on a|nous avons|decide|choisi|convenu|retenu|decidimos|elegimos|acordamos|escogimos|usamos|hemos|habiamos)\b|定了|决定|決定|选了|選了|用了|之前|上次|決め|選ん|使った|前回/u;

export function asksAboutEarlierWork(text: string, now = new Date()): boolean {
  return EARLIER_WORK.test(normalize(text)) || timeWindow(text, now).window !== null;
}

const subjectWords = (key: string) => key.replace(/[._-]+/g, ' ');

/** How much of the text's features an episode has (featureWeight each). Pure. */
function episodeScore(terms: Set<string>, r: EpisodeRow): number {
  const doc = features(`${r.value} ${subjectWords(r.subject_key)} ${r.task_title ?? ''} ${r.task_goal ?? ''}`);
  let s = 0;
  for (const f of terms) if (doc.has(f)) s += featureWeight(f);
  return s;
}

/**
 * Episode sentences with their citations, best first (with a text) or newest first. With a text,
 * an episode must meet its words (at least half as well as the best one does); a text that names
 * only a time returns that time's episodes; a text naming neither returns nothing.
 */
export async function retrieveEpisodes(prisma: PrismaClient, q: EpisodeQuery): Promise<{ window: EpisodeWindow | null; episodes: RetrievedEpisode[] }> {
  const now = q.now ?? new Date();
  const limit = Math.max(0, Math.min(q.limit ?? 20, 200));
  let window: EpisodeWindow | null = q.from || q.to ? { from: q.from ?? new Date(0), to: q.to ?? now, phrase: null } : null;
  let terms = new Set<string>();
  if (q.text?.trim()) {
    const read = q.readTime === false ? { window: null, rest: normalize(q.text) } : timeWindow(q.text, now);
    window ??= read.window;
    terms = episodeTerms(read.rest);
    if (!terms.size && !window && !q.taskId && !q.subject) return { window, episodes: [] };
  }
  const filter = { workspaceId: q.workspaceId, userId: q.userId, taskId: q.taskId, subject: q.subject, from: window?.from, to: window?.to, excludeCorrected: q.excludeCorrected };
  let rows: (EpisodeRow & { score: number })[];
  if (terms.size) {
    const candidates = await episodeCandidates(prisma, { ...filter, limit: q.candidates ?? EPISODE_CANDIDATES });
    const scored = candidates.map((r) => ({ ...r, score: episodeScore(terms, r) })).filter((r) => r.score > 0);
    const best = Math.max(0, ...scored.map((r) => r.score));
    // Stable: best first, then newest first (the candidates' order).
    rows = scored
      .filter((r) => r.score >= best / 2)
      .map((r, i) => ({ r, i }))
      .sort((a, b) => b.r.score - a.r.score || a.i - b.i)
      .map((x) => x.r)
      .slice(q.offset ?? 0, (q.offset ?? 0) + limit);
  } else {
    rows = (await episodeCandidates(prisma, { ...filter, limit, offset: q.offset ?? 0 })).map((r) => ({ ...r, score: 0 }));
  }
  const evidence = rows.length
    ? await prisma.memoryEvidence.findMany({ where: { id: { in: [...new Set(rows.flatMap((r) => r.evidence_ids))] }, status: 'ACTIVE' } })
    : [];
  const byId = new Map(evidence.map((e) => [e.id, e]));
  const episodes = rows.map((r) => ({
    sentenceId: r.sentence_id,
    summaryId: r.summary_id,
    phaseKey: r.phase_key,
    day: r.day,
    taskId: r.task_id,
    taskTitle: r.task_title,
    versionId: r.version_id,
    memoryId: r.memory_id,
    subjectKey: r.subject_key,
    value: r.value,
    origin: r.origin,
    text: r.text,
    evidenceIds: r.evidence_ids,
    citations: r.evidence_ids
      .map((id) => byId.get(id))
      .filter((e) => !!e)
      .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime())
      .map((e) => ({ evidenceId: e.id, kind: e.kind, messageId: e.messageId, occurredAt: e.occurredAt, excerpt: e.text.slice(0, 200) })),
    recordedAt: r.created_at,
    score: r.score,
  }));
  return { window, episodes };
}

export type EpisodeFilterInput = {
  workspaceId: string;
  query?: string | null;
  from?: Date | null;
  to?: Date | null;
  taskId?: string | null;
  subject?: string | null;
};

/**
 * The API's episodes of the viewer in a workspace (their own summaries only), a page at a time.
 * Bad input is BAD_USER_INPUT naming its argument; a task of another workspace is NOT_FOUND.
 * (It takes the database only: the worker's memory context, which services/deps.ts wires, reads
 * episodes too, so this module must not import the deps.)
 */
export async function listEpisodes(deps: { prisma: PrismaClient }, viewer: Viewer, f: EpisodeFilterInput, page: { offset: number; limit: number }): Promise<RetrievedEpisode[]> {
  requireWorkspace(viewer, f.workspaceId, 'read');
  if (f.query != null && f.query.length > MAX_EPISODE_QUERY) throw badInput(`query must be at most ${MAX_EPISODE_QUERY} characters`, { argument: 'query' });
  if (f.query != null && !f.query.trim()) throw badInput('query must not be blank (leave it out to list every episode)', { argument: 'query' });
  if (f.from && f.to && f.from.getTime() >= f.to.getTime()) throw badInput('from must be before to', { argument: 'to' });
  if (f.subject != null && !/^[a-z][a-z0-9_.-]{0,80}$/.test(f.subject)) throw badInput('subject must be a subject key or a prefix ending in "."', { argument: 'subject' });
  if (f.taskId) {
    const task = await deps.prisma.task.findFirst({ where: { id: f.taskId, workspaceId: f.workspaceId }, select: { id: true } });
    if (!task) throw notFound('Task');
  }
  const { episodes } = await retrieveEpisodes(deps.prisma, {
    workspaceId: f.workspaceId,
    userId: viewer.userId,
    text: f.query,
    taskId: f.taskId,
    subject: f.subject,
    from: f.from,
    to: f.to,
    limit: page.limit,
    offset: page.offset,
  });
  return episodes;
}
