// Is a memory relevant to a text (a question, or a task's title and goal)? Pure.
//
// A memory is found by its subject or by its value. Its subject is named in words through the
// vocabulary the extractor reads statements by ("I live in …" is `user.residence`, so "where do I
// live?" names it), and its value by sharing a word ("the Berlin poster" finds "Lives in Berlin").
// A memory that is neither named nor shares a word with the text is not relevant: retrieval
// returns nothing rather than the nearest guess, which is how a question about something never
// said gets no answer.
import { topicMentioned } from './extractor.ts';

/** Lower case, accents removed, split into words. */
export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Plural and third-person "s" removed, so "palettes" meets "palette" and "lives" meets "live". */
const stem = (w: string) => (w.length > 4 && w.endsWith('es') && !w.endsWith('ses') ? w.slice(0, -1) : w).replace(/(?<=.{3})s$/, '');

const STOP = new Set(
  (
    'the a an and or of to in on at for with from by as is are was were be been am do does did has have had will would can could ' +
    'should what which who whom whose where when why how i me my mine we us our ours you your it its this that these those there ' +
    'now then again please any some more most very really just also than into about over der die das ein eine und oder ist sind ' +
    'ich mein meine wir unser unsere wo was wie welche'
  ).split(' '),
);

/** The content words of a text, stemmed. */
export function contentWords(text: string): Set<string> {
  return new Set(words(text).filter((w) => w.length > 2 && !STOP.has(w)).map(stem));
}

const set = (s: string) => new Set(s.split(' ').map(stem));
const BRAND = set('brand brands marke markenfarbe');
const COLOUR = set('colour colours color colors palette palettes hue hues farbe farben markenfarbe');
const FONT = set('font fonts typeface typefaces typography schrift schriftart');
const PREFER = set('prefer prefers preferred preference preferences like likes love loves favour favor favourite favorite');
const AVOID = set('avoid avoids dislike dislikes hate hates');

/**
 * The word groups that name a subject: the text names it when it has a word of every group. These
 * mirror the extractor's rules (the words its statements are recognised by), in the languages the
 * rules read.
 */
function subjectGroups(subjectKey: string): ((w: Set<string>) => boolean)[] {
  const any = (g: Set<string>) => (w: Set<string>) => [...w].some((x) => g.has(x));
  const topic = (t: string) => (w: Set<string>) => [...w].some((x) => topicMentioned(t, x) || x === stem(t));
  if (subjectKey === 'user.residence') return [any(set('live lives living lived based moved relocated residence wohne wohnst wohnt wohnen lebe lebst'))];
  if (subjectKey === 'user.name') return [any(set('name named'))];
  if (subjectKey === 'user.work') return [any(set('work works working job'))];
  if (subjectKey === 'brand.colors') return [any(BRAND), any(COLOUR)];
  if (subjectKey === 'brand.font') return [any(BRAND), any(FONT)];
  if (subjectKey === 'brand.tone') return [any(BRAND), any(set('tone voice'))];
  const [head, t] = [subjectKey.slice(0, subjectKey.indexOf('.') + 1), subjectKey.slice(subjectKey.indexOf('.') + 1)];
  if (head === 'preference.') return [any(PREFER), topic(t)];
  if (head === 'avoid.') return [any(AVOID), topic(t)];
  if (head === 'habit.') return [any(set('always habit habits')), topic(t)];
  return [topic(subjectKey)];
}

export type Relevance = { relevant: boolean; score: number };

/**
 * How well a text points at a memory: 2 when it names the memory's subject, plus one per content
 * word it shares with the value. Relevant when either is the case.
 */
export function relevance(text: string | Set<string>, m: { subjectKey: string; value: string }): Relevance {
  const q = typeof text === 'string' ? contentWords(text) : text;
  if (!q.size) return { relevant: false, score: 0 };
  const named = subjectGroups(m.subjectKey).every((g) => g(q));
  const shared = [...contentWords(m.value)].filter((w) => q.has(w)).length;
  return { relevant: named || shared > 0, score: (named ? 2 : 0) + shared };
}
