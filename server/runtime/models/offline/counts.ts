// The count bound to the head noun of a request: a count phrase, a number or number word before it
// (not a size or a length), a "×3" after it, or a Chinese / Japanese number with its classifier.
import type { Cue, Token } from './cues.ts';
import { CJK_CLASSIFIER, CJK_DIGITS, CJK_VAGUE, COUNT_PHRASES, NUMBER_WORDS, TOPIC, UNITS } from './vocabulary.ts';

/** A number at token i (a digit string or a number word), or null. */
function numberAt(toks: Token[], i: number): number | null {
  const w = toks[i]?.w;
  if (!w) return null;
  if (/^\d{1,3}$/.test(w)) return Number(w);
  return NUMBER_WORDS[w] ?? null;
}

/** The count bound to the head noun at token `h` (Latin script), or null when none is given. */
export function latinCount(toks: Token[], h: number, t: string): number | null {
  // "a couple of", "ein paar", "quelques" … up to four tokens before the head.
  for (let i = Math.max(0, h - 5); i < h; i++) {
    for (const [phrase, n] of COUNT_PHRASES) {
      const words = phrase.split(' ');
      if (i + words.length <= h && words.every((w, k) => toks[i + k]!.w === w)) {
        // Only when nothing but adjectives lies between the phrase and the head.
        if (h - (i + words.length) <= 3 && !toks.slice(i + words.length, h).some((x) => TOPIC.has(x.w))) return n;
      }
    }
  }
  // A number up to three tokens before the head, not followed by a unit (a 30-second clip).
  for (let i = h - 1; i >= Math.max(0, h - 4); i--) {
    const n = numberAt(toks, i);
    if (n === null) {
      if (TOPIC.has(toks[i]!.w) || /^\d/.test(toks[i]!.w)) break;
      continue;
    }
    const next = toks[i + 1]?.w ?? '';
    if (UNITS.has(next) || /^\d+(k|p|px|s)$/.test(next)) continue;
    return n; // an article counts one (a poster); classify drops it before a series or a plural
  }
  // "posters x3", "Plakate, 4 Stück".
  const after = t.slice(toks[h]!.end, toks[h]!.end + 16);
  const m = after.match(/^\W{0,3}(?:x|×)\s?(\d{1,2})\b|^\W{0,3}(\d{1,2})\s?(?:stück|pieces|unidades|exemplaires)/u);
  if (m) return Number(m[1] ?? m[2]);
  return null;
}

/** The count bound to a head noun in Chinese or Japanese text (四张海报, 海报三张, ポスターを3枚), or null. */
export function cjkCount(t: string, head: Cue): number | null {
  const num = `(\\d{1,2}|十[一二]?|[一二两三四五六七八九十])`;
  const before = t.slice(Math.max(0, head.start - 12), head.start);
  const after = t.slice(head.end, head.end + 8);
  const vague = CJK_VAGUE.test(before) || CJK_VAGUE.test(after);
  const b = before.match(new RegExp(`${num}\\s?[${CJK_CLASSIFIER}](?:の)?[^${CJK_CLASSIFIER}]{0,10}$`, 'u'));
  const a = after.match(new RegExp(`^[をがはも]?\\s?${num}\\s?[${CJK_CLASSIFIER}]`, 'u'));
  const raw = (a ?? b)?.[1];
  if (raw) return /^\d+$/.test(raw) ? Number(raw) : (CJK_DIGITS[raw] ?? null);
  return vague ? 3 : null;
}
