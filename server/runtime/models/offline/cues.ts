// Cues of a request: every vocabulary word found in the normalised text (longest match wins where
// matches overlap, plural forms marked), and the Latin-script tokens that cue positions map onto.
import { VOCAB, type Cls, type Role, type Vocab } from './vocabulary.ts';

export type Cue = { cls: Cls | null; role: Role; start: number; end: number; plural: boolean };

export const LATIN_LETTER = 'a-zà-öø-ÿœæß';
export const CJK_RE = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]/u;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Matcher = { re: RegExp; cls: Cls | null; role: Role; plural: boolean; cjk: boolean; stem: string; langs: string[] | null };
const MATCHERS: Matcher[] = VOCAB.flatMap((v) =>
  v.words
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => matcherFor(w, v)),
);

function matcherFor(entry: string, v: Vocab): Matcher {
  const [word, langList] = entry.split('@') as [string, string | undefined];
  const langs = langList ? langList.split(',') : null;
  const plural = word.includes('!');
  let w = word.replace('!', '');
  if (CJK_RE.test(w) && !/[a-z]/.test(w)) return { re: new RegExp(escape(w), 'gu'), cls: v.cls, role: v.role, plural, cjk: true, stem: w, langs };
  const compound = w.startsWith('-') && w.length > 1;
  if (compound) w = w.slice(1);
  let tail = `(?![${LATIN_LETTER}])`;
  if (w.endsWith('~')) {
    w = w.slice(0, -1);
    tail = `[${LATIN_LETTER}]{0,3}(?![${LATIN_LETTER}])`;
  } else if (w.endsWith('*')) {
    w = w.slice(0, -1);
    tail = `[${LATIN_LETTER}]*`;
  }
  const body = w.split('_').map(escape).join('[\\s-]+');
  const head = compound ? '' : `(?<![${LATIN_LETTER}0-9])`;
  return { re: new RegExp(`${head}${body}${tail}`, 'gu'), cls: v.cls, role: v.role, plural, cjk: false, stem: w.replace(/_/g, ' '), langs };
}

/** Endings that make a Latin-script noun plural (posters, Plakate, Bilder, affiches, carteles). */
const PLURAL_ENDINGS = new Set(['s', 'es']);
/** German plurals (Plakate, Bilder, Grafiken); elsewhere these endings are not plurals (dessine). */
const PLURAL_ENDINGS_DE = new Set(['e', 'er', 'en', 'ern', 'n']);

export function normalizeRequest(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[’'`´]/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Every cue in the text; where cues overlap, the longest wins (動画 over 画, 絵コンテ over 絵). */
export function findCues(t: string, lang: string): Cue[] {
  const all: Cue[] = [];
  for (const m of MATCHERS) {
    if (m.langs && !m.langs.includes(lang)) continue;
    for (const x of t.matchAll(m.re)) {
      if (!x[0]) continue;
      const word = x[0];
      // A plural: an explicit plural entry, or a Latin noun inflected like a plural.
      const ending = word.startsWith(m.stem) ? word.slice(m.stem.length) : null;
      const plural = m.plural || (!m.cjk && m.role === 'noun' && ending !== null && (PLURAL_ENDINGS.has(ending) || (lang === 'de' && PLURAL_ENDINGS_DE.has(ending))));
      all.push({ cls: m.cls, role: m.role, start: x.index!, end: x.index! + word.length, plural });
    }
  }
  all.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const kept: Cue[] = [];
  for (const c of all) {
    const clash = kept.find((k) => c.start < k.end && k.start < c.end);
    if (!clash) kept.push(c);
    else if (c.end - c.start > clash.end - clash.start) kept.splice(kept.indexOf(clash), 1, c);
  }
  return kept.filter((c) => c.role !== 'none').sort((a, b) => a.start - b.start);
}

export type Token = { w: string; start: number; end: number };
export function tokens(t: string): Token[] {
  return [...t.matchAll(new RegExp(`[${LATIN_LETTER}0-9]+`, 'gu'))].map((m) => ({ w: m[0], start: m.index!, end: m.index! + m[0].length }));
}

export const tokenAt = (toks: Token[], pos: number) => toks.findIndex((k) => pos >= k.start && pos < k.end);
