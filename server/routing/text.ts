// Lexical matching that works across scripts: words for alphabetic languages, character bigrams for
// CJK (which has no spaces). Pure and deterministic.

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/;

const STOP = new Set(
  (
    'a an the and or of to in on for with at by from is are was be it this that these those me my you your we our can could ' +
    'please pls make do again now just some more one ones also then there here what which how new version ' +
    'der die das den dem des ein eine einen und oder mit für von zu im in auf ist sind bitte mach mache noch mal jetzt auch ' +
    'le la les un une des et ou de du pour avec est el los las y o para con es por'
  ).split(/\s+/),
);

export function normalize(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKC')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Light stemming so "posters" matches "poster" and "Plakate" matches "Plakat". */
function stem(w: string): string {
  for (const suf of ['ungen', 'ung', 'en', 'es', 'er', 'e', 's']) {
    if (w.length > suf.length + 3 && w.endsWith(suf)) return w.slice(0, -suf.length);
  }
  return w;
}

export function features(text: string): Set<string> {
  const out = new Set<string>();
  const n = normalize(text);
  for (const word of n.split(' ')) {
    if (!word) continue;
    if (CJK.test(word)) {
      const chars = [...word].filter((c) => CJK.test(c) || /\p{L}|\p{N}/u.test(c));
      for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!);
      if (chars.length === 1) out.add(chars[0]!);
    } else if (!STOP.has(word) && word.length > 1) {
      out.add(stem(word));
    }
  }
  return out;
}

/** Share of the message's features found in the candidate text (0..1), weighted towards rarer, longer features. */
export function overlap(message: Set<string>, candidate: Set<string>): number {
  if (message.size === 0) return 0;
  let hit = 0;
  let total = 0;
  for (const f of message) {
    const w = Math.min(3, 1 + f.length / 6);
    total += w;
    if (candidate.has(f)) hit += w;
  }
  return hit / total;
}
