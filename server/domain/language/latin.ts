// Latin-script scoring: each word adds evidence per language (lexicon hits, else letters and
// spelling patterns); the best language wins when it clearly leads and enough words were known.
import { BUCKETS, bucketOf, idx, LATIN, OTHER, type LanguageDetection, type Weights } from './codes.ts';
import { round, saturate, UND } from './confidence.ts';
import { LETTERS, PATTERNS, SKEWED } from './latin-spelling.ts';
import { WORDS } from './latin-words.ts';

type Entry = ReadonlyArray<readonly [bucket: number, weight: number]>;

/** word → (bucket, weight): a word listed for k languages gives 1/k to each. */
const LEXICON: ReadonlyMap<string, Entry> = (() => {
  const langs = new Map<string, number[]>();
  for (const lang of LATIN) {
    for (const raw of WORDS[lang].split(/\s+/)) {
      const w = raw.normalize('NFC').toLowerCase();
      if (!w) continue;
      const list = langs.get(w) ?? [];
      if (!list.includes(idx(lang))) list.push(idx(lang));
      langs.set(w, list);
    }
  }
  const m = new Map<string, Entry>();
  for (const [w, list] of langs) m.set(w, list.map((b) => [b, 1 / list.length] as const));
  for (const [w, weights] of Object.entries(SKEWED)) {
    m.set(w, Object.entries(weights).map(([k, v]) => [bucketOf(k as keyof Weights), v] as const));
  }
  return m;
})();

const UNKNOWN_WORD_CAP = 0.8;
const EN_CLITIC = /^(?:s|t|re|ll|ve|d|m)$/;

function addWeights(into: Float64Array, w: Weights): void {
  for (const k in w) {
    const v = w[k as keyof Weights];
    if (v !== undefined) into[bucketOf(k as keyof Weights)]! += v;
  }
}

function addLexical(scores: Float64Array, entry: Entry): void {
  for (const [b, w] of entry) scores[b]! += w;
}

/**
 * Adds the evidence of one lower-cased Latin word to `scores` (`tmp` is scratch space); returns
 * whether the word (or part of it) is in a lexicon.
 */
function scoreWord(word: string, scores: Float64Array, tmp: Float64Array): boolean {
  const known = LEXICON.get(word);
  if (known) {
    addLexical(scores, known);
    return true;
  }
  const apos = word.indexOf("'");
  if (apos >= 0) {
    const head = word.slice(0, apos + 1);
    const tail = word.slice(apos + 1);
    const elided = LEXICON.get(head);
    if (elided) {
      addLexical(scores, elided); // l'affiche, d'un, dell'immagine
      if (tail) scoreWord(tail, scores, tmp);
      return true;
    }
    if (EN_CLITIC.test(tail)) {
      scores[idx('en')]! += 0.8; // Nike's, logo's, they'd
      scoreWord(word.slice(0, apos), scores, tmp);
      return true;
    }
    const a = scoreWord(word.slice(0, apos), scores, tmp);
    const b = tail ? scoreWord(tail, scores, tmp) : false;
    return a || b;
  }
  if (word.length < 2) return false;
  // Unknown word: characteristic letters (max per language) plus spelling patterns, capped.
  tmp.fill(0);
  for (const ch of word) {
    const w = LETTERS.get(ch);
    if (!w) continue;
    for (const k in w) {
      const v = w[k as keyof Weights] ?? 0;
      const b = bucketOf(k as keyof Weights);
      if (v > tmp[b]!) tmp[b] = v;
    }
  }
  if (word.length >= 3) for (const [re, w] of PATTERNS) if (re.test(word)) addWeights(tmp, w);
  for (let b = 0; b < BUCKETS; b++) scores[b]! += Math.min(tmp[b]!, UNKNOWN_WORD_CAP);
  return false;
}

const LATIN_WORD = /[\p{Script=Latin}\p{M}]+(?:'[\p{Script=Latin}\p{M}]*)*/gu;
const MIN_LATIN_SCORE = 0.5;
const MIN_MARGIN = 0.1;
const MIN_COVERAGE = 0.3;

export function detectLatin(t: string, purity: number): LanguageDetection {
  const scores = new Float64Array(BUCKETS);
  const tmp = new Float64Array(BUCKETS);
  let words = 0;
  let known = 0;
  for (const m of t.matchAll(LATIN_WORD)) {
    const w = m[0].toLowerCase().replace(/^'+|'+$/g, '');
    if (!w) continue;
    words++;
    if (scoreWord(w, scores, tmp)) known++;
  }
  // Real sentences in a supported language always hit the function-word lists; a sentence of
  // unknown words is another language (Polish, Turkish, Swedish …) or names only.
  const coverage = words ? known / words : 0;
  if (words >= 3 && coverage < MIN_COVERAGE) return UND;
  const inverted = (t.match(/[¿¡]/g)?.length ?? 0) > 0;
  if (inverted) scores[idx('es')]! += 1;

  let best = 0;
  let second = -1;
  for (let b = 1; b < BUCKETS; b++) {
    if (scores[b]! > scores[best]!) {
      second = best;
      best = b;
    } else if (second < 0 || scores[b]! > scores[second]!) second = b;
  }
  const s1 = scores[best]!;
  const s2 = second >= 0 ? scores[second]! : 0;
  if (s1 < MIN_LATIN_SCORE || best === OTHER) return UND;
  const margin = (s1 - s2) / s1;
  if (margin < MIN_MARGIN) return UND;
  const coverageFactor = Math.min(1, 0.5 + coverage);
  return { language: LATIN[best]!, confidence: round(margin * saturate(s1, 1.5) * purity * coverageFactor) };
}
