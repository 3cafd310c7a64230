// A next round of a line of work as the offline model reads it: the "[earlier rounds]" block of
// the request (domain/rounds.ts renderEarlierRounds writes it; this parser follows that format),
// the plan of only what the round's request changes, and the earlier result each step starts from.
//   - "make the second poster warmer", "das zweite Plakat", "la deuxième affiche", "第二张海报",
//     "2枚目のポスター", "poster 2", "the last one" → one step revising that result, from it;
//   - a round that was cancelled (or failed, or stopped) with steps left → those steps, picking up
//     from what it made (the pick, the candidates);
//   - a request of a kind the line has not made yet ("now a jingle for it") → that plan;
//   - otherwise a change to what the line delivered ("warmer colours") → one step per delivered
//     result of the kind asked about.
// Steps are known by their checklist ids, which stay the English slugs in every language ("poster-2",
// "look-candidates"; offline/texts.ts): a revision is "revise-poster-2", whatever the titles say.
import { classify, type Plan } from './classify.ts';
import { normalizeRequest } from './cues.ts';
import { REPLY_LANGUAGES, textsFor, type Texts } from '../../../domain/replies/texts.ts';
import { isCandidateStep, isCandidateTitle, localizedTitle } from './texts.ts';

export type EarlierItem = { round: number; n: number; id: string; status: string; title: string; kind: string; count: number; results: string[] };
export type EarlierRound = { round: number; status: string; items: EarlierItem[] };
/** A next round's plan: steps may carry the id they continue (a revision's, a step left unfinished). */
export type RoundPlan = Omit<Plan, 'items'> & { items: { id?: string; title: string; kind: string; count?: number }[] };

const GENERATION = new Set(['IMAGE', 'VIDEO', 'AUDIO', 'MODEL_3D']);
const REVISE_ID = 'revise-';
/** Candidates, known by id (the English slug) or by title (in any language). */
const isCandidates = (i: { id: string; title: string }) => isCandidateStep(i) || isCandidateTitle(i.title);
/** A revision's title in every language, as the text before and after the revised step's title. */
const REVISE_TITLES = [...new Set(REPLY_LANGUAGES.map((l) => textsFor(l).offline.revise('\u0000')))].map((x) => x.split('\u0000') as [string, string]);

/** The earlier rounds of the request's "[earlier rounds]" block, or null when there is none. */
export function parseEarlierRounds(text: string): EarlierRound[] | null {
  if (!text.startsWith('[earlier rounds]')) return null;
  const rounds: EarlierRound[] = [];
  for (const line of text.split('\n')) {
    const head = line.match(/^Round (\d+) \(task [^)]*\): ([A-Z_]+)/);
    if (head) {
      rounds.push({ round: Number(head[1]), status: head[2]!, items: [] });
      continue;
    }
    const m = line.match(/^(\d+)\. \[(\w+)\] (.*?) \(id ([^,]+), ([A-Z_0-9]+)(?: ×(\d+))?\)(?: results: ([^—\n]*))?/);
    const r = rounds.at(-1);
    if (m && r) {
      r.items.push({
        round: r.round,
        n: Number(m[1]),
        status: m[2]!,
        title: m[3]!,
        id: m[4]!,
        kind: m[5]!,
        count: Number(m[6] ?? 1),
        results: (m[7] ?? '').split(',').map((x) => x.trim()).filter(Boolean),
      });
    }
  }
  return rounds;
}

/** The step a step made or revised: "revise-poster-2" revises "poster-2". */
export const deliverableKey = (id: string) => (id.startsWith(REVISE_ID) ? id.slice(REVISE_ID.length) : id);
/** A step's title without the revision mark. */
function baseTitle(title: string): string {
  for (const [before, after] of REVISE_TITLES) {
    if (title.length > before.length + after.length && title.startsWith(before) && title.endsWith(after)) return title.slice(before.length, title.length - after.length);
  }
  return title;
}

/** The line's delivered results by step, latest revision of each, in the order they were first made (candidates excluded). */
export function deliverables(rounds: readonly EarlierRound[]): EarlierItem[] {
  const order: string[] = [];
  const latest = new Map<string, EarlierItem>();
  for (const i of rounds.flatMap((r) => r.items)) {
    if (!GENERATION.has(i.kind) || !i.results.length || isCandidates(i)) continue;
    const key = deliverableKey(i.id);
    if (!latest.has(key)) order.push(key);
    latest.set(key, i); // a later revision takes the place of what it revised
  }
  return order.map((k) => latest.get(k)!);
}

// Ordinals by language: the words, and the position they name (0: the last). Words are matched whole
// (letters of any script count, so "última" and "deuxième" are words).
const word = (alternatives: string) => new RegExp(`(?<![\\p{L}\\d])(?:${alternatives})(?![\\p{L}\\d])`, 'gu');
const ORDINAL_WORDS: [RegExp, number][] = [
  [word('first|1st|erste[nmrs]?|premier|première|primer[oa]?'), 1],
  [word('(?<!\\d\\s?)second|2nd|zweite[nmrs]?|deuxième|seconde|segund[oa]'), 2],
  [word('third|3rd|dritte[nmrs]?|troisième|tercer[oa]?'), 3],
  [word('fourth|4th|vierte[nmrs]?|quatrième|cuart[oa]'), 4],
  [word('fifth|5th|fünfte[nmrs]?|cinquième|quint[oa]'), 5],
  [word('sixth|6th|sechste[nmrs]?|sixième|sext[oa]'), 6],
  [word('seventh|7th|siebte[nmrs]?|septième|séptim[oa]'), 7],
  [word('eighth|8th|achte[nmrs]?|huitième|octav[oa]'), 8],
  [word('ninth|9th|neunte[nmrs]?|neuvième|noven[oa]'), 9],
  [word('tenth|10th|zehnte[nmrs]?|dixième|décim[oa]'), 10],
  [word('last|letzte[nmrs]?|dernier|dernière|últim[oa]'), 0],
];
const CJK_DIGIT: Record<string, number> = { 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 };
/** A number after a noun of a result: "poster 2", "Plakat Nr. 3", "shot #2". */
const NOUN_NUMBER = word(
  '(?:posters?|images?|pictures?|photos?|illustrations?|plakate?|bilder|bild|affiches?|carteles|cartel|póster|imagen|shots?|clips?|videos?|vidéo|vídeo|takes?|versions?|variante?|number|nummer|numéro|número|nr|no)\\.?\\s*#?(\\d{1,2})',
);

/** The positions a request names (1-based; 0 is "the last"), in the order named. */
export function namedPositions(request: string): number[] {
  const t = normalizeRequest(request);
  const out: number[] = [];
  const add = (n: number) => {
    if (!out.includes(n)) out.push(n);
  };
  const hits: [number, number][] = [];
  for (const [re, n] of ORDINAL_WORDS) for (const m of t.matchAll(re)) hits.push([m.index!, n]);
  for (const m of t.matchAll(NOUN_NUMBER)) hits.push([m.index!, Number(m[1])]);
  for (const m of t.matchAll(/#(\d{1,2})(?!\d)/gu)) hits.push([m.index!, Number(m[1])]);
  // 第二张, 第2个; 2枚目, 二つ目, 3番目; 最后一张, 最後の.
  for (const m of t.matchAll(/第(\d{1,2}|[一二两三四五六七八九十])/gu)) hits.push([m.index!, /\d/.test(m[1]!) ? Number(m[1]) : CJK_DIGIT[m[1]!]!]);
  for (const m of t.matchAll(/(\d{1,2}|[一二三四五六七八九十])\s?(?:枚|番|本|つ|個)目/gu)) hits.push([m.index!, /\d/.test(m[1]!) ? Number(m[1]) : CJK_DIGIT[m[1]!]!]);
  for (const m of t.matchAll(/最后|最後/gu)) hits.push([m.index!, 0]);
  for (const [, n] of hits.sort((a, b) => a[0] - b[0])) add(n);
  return out;
}

const ALL = word('all|every|each|them|both|alle[nms]?|beiden?|tous|toutes|todos|todas|ambos|ambas');
/** More of the same, as opposed to "more" of a quality ("more saturated", "noch wärmer", "más cálido"). */
const MORE: RegExp[] = [
  /(?:\d+|one|two|three|four|five|six|a few|some|several|a couple(?: of)?)\s+more\b/u,
  /\bmore\s+(?:posters?|images?|pictures?|versions?|variants?|illustrations?|photos?|videos?|clips?|shots?|songs?|jingles?|models?|designs?)\b/u,
  /\b(?:another|additional|extra)\s/u,
  /\b(?:weitere[nmrs]?|zusätzliche[nmrs]?)\b|\bnoch\s+(?:ein|eine|einen|zwei|drei|vier|fünf|\d+)\b/u,
  /(?:deux|trois|quatre|cinq|\d+|d)\s*(?:autres|nouvelles|nouveaux)\b|\bsupplémentaires?\b/u,
  /\b(?:dos|tres|cuatro|cinco|\d+)\s+(?:\p{L}+\s+)?(?:más|otros|otras|nuevos|nuevas|adicionales)/u,
  /再(?:做|来|画|生成|加)|另外|追加|もう(?:\d|[一二三四五])/u,
];
/** "three more posters", "noch zwei Plakate", "deux autres affiches", "再做两张", "もう2枚". */
const mentionsMore = (t: string) => MORE.some((re) => re.test(t));
/** "all of them", "alle", "toutes", "全部", "すべて". */
const mentionsAll = (t: string) => t.search(ALL) >= 0 || /全部|所有|すべて|両方/u.test(t);

/** The generation kinds a request asks about, from its class (null: it names none). */
function kindsAsked(request: string): Set<string> | null {
  const plan = classify(request);
  if (!plan) return null;
  const kinds = plan.items.map((i) => i.kind).filter((k) => GENERATION.has(k));
  return kinds.length ? new Set(kinds) : null;
}

/**
 * The plan of a next round: only what its request changes or adds, from the earlier rounds. Null
 * when the rules cannot tell (the caller plans from the request alone). `say`: the task's language
 * (a revision's step title).
 */
export function planNextRound(request: string, rounds: readonly EarlierRound[], say: Texts = textsFor('en')): RoundPlan | null {
  const subject = request.replace(/\s+/g, ' ').trim().slice(0, 160);
  const made = deliverables(rounds);
  const asked = kindsAsked(request);
  const ofKind = asked ? made.filter((d) => asked.has(d.kind)) : made;
  const revise = (targets: EarlierItem[]): RoundPlan => ({
    kind: 'change',
    subject,
    items: targets.map((d) => ({ id: `${REVISE_ID}${deliverableKey(d.id)}`.slice(0, 40), title: say.offline.revise(localizedTitle(baseTitle(d.title), say)), kind: d.kind, ...(d.count > 1 ? { count: d.count } : {}) })),
  });

  // 1. A result named by its position: "the second poster", "poster 2", "the last one".
  const positions = namedPositions(request);
  const pool = ofKind.length ? ofKind : made;
  const named = positions.map((p) => (p === 0 ? pool.at(-1) : pool[p - 1])).filter((d): d is EarlierItem => !!d);
  if (named.length) return revise([...new Set(named)]);

  // 2. Something of a kind the line has neither made nor left unfinished, or more of it ("three
  // more posters"): new work of this round, planned from the request.
  const plan = classify(request);
  const last = rounds.at(-1);
  const left = last && last.status !== 'COMPLETED' ? last.items.filter((i) => i.status !== 'DONE' && i.status !== 'SKIPPED') : [];
  const known = new Set([...made.map((d) => d.kind), ...left.map((i) => i.kind)]);
  if (plan && asked && (![...asked].some((k) => known.has(k)) || mentionsMore(normalizeRequest(request)))) return plan;

  // 3. The last round ended before its work was done: the steps it left, from what it made — unless
  // the request is about everything already delivered ("make them all warmer").
  if (left.length && !(ofKind.length && asked && mentionsAll(normalizeRequest(request)))) {
    return { kind: 'resume', subject, items: left.map((i) => ({ id: i.id, title: i.title, kind: i.kind, ...(i.count > 1 ? { count: i.count } : {}) })) };
  }

  // 4. A change to what was delivered: every result of the kind asked about (one when there is one).
  if (ofKind.length) return revise(ofKind);
  return plan;
}

/**
 * The earlier result a step of a next round starts from: what it revises ("revise-poster-2" →
 * poster 2's latest result); else, for an image, the person's latest pick; else the latest result
 * of the same kind.
 */
export function earlierReference(rounds: readonly EarlierRound[], step: { id: string; kind: string }): string | null {
  const made = deliverables(rounds);
  const key = deliverableKey(step.id);
  const same = made.find((d) => deliverableKey(d.id) === key);
  if (same) return same.results[0] ?? null;
  const all = rounds.flatMap((r) => r.items);
  if (step.kind === 'IMAGE') {
    const pick = [...all].reverse().find((i) => i.kind === 'CHECKPOINT' && i.results.length);
    if (pick) return pick.results[0]!;
  }
  return made.filter((d) => d.kind === step.kind).at(-1)?.results[0] ?? null;
}

/** Candidates an earlier round made (for a pick left open when it ended), newest first. */
export function earlierCandidates(rounds: readonly EarlierRound[]): EarlierItem | null {
  const made = [...rounds.flatMap((r) => r.items)].reverse().filter((i) => GENERATION.has(i.kind) && i.results.length >= 2);
  return made.find(isCandidates) ?? made[0] ?? null;
}
