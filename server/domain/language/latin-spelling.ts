// Weighted Latin-script evidence beyond the word lists: words whose languages are not equally
// likely, characteristic letters and spelling patterns of words no list knows.
import type { Weights } from './codes.ts';

/** Words whose languages are not equally likely: explicit weights instead of 1/k. */
export const SKEWED: Record<string, Weights> = {
  o: { pt: 0.6, es: 0.2, it: 0.2 }, // the Portuguese article; "or" in Spanish and Italian
};

/** Letters of unknown words: per word, each language takes the maximum over its letters. */
export const LETTERS: ReadonlyMap<string, Weights> = new Map<string, Weights>([
  ['ß', { de: 1 }],
  ['ä', { de: 0.6 }],
  ['ö', { de: 0.6 }],
  ['ü', { de: 0.6 }],
  ['ñ', { es: 1 }],
  ['ã', { pt: 1 }],
  ['õ', { pt: 1 }],
  ['ç', { fr: 0.5, pt: 0.5 }],
  ['é', { fr: 0.35, es: 0.2, pt: 0.2, it: 0.1 }],
  ['è', { fr: 0.5, it: 0.3 }],
  ['ê', { fr: 0.5, pt: 0.4 }],
  ['â', { fr: 0.5, pt: 0.4 }],
  ['ô', { fr: 0.5, pt: 0.4 }],
  ['î', { fr: 0.7 }],
  ['ï', { fr: 0.6, nl: 0.3 }],
  ['û', { fr: 0.7 }],
  ['ë', { fr: 0.3, nl: 0.4 }],
  ['à', { fr: 0.3, it: 0.3, pt: 0.2 }],
  ['ù', { fr: 0.4, it: 0.3 }],
  ['ì', { it: 0.7 }],
  ['ò', { it: 0.7 }],
  ['á', { es: 0.5, pt: 0.5 }],
  ['í', { es: 0.5, pt: 0.4, it: 0.1 }],
  ['ó', { es: 0.5, pt: 0.4, it: 0.1 }],
  ['ú', { es: 0.5, pt: 0.4 }],
  ...[...'åøæłśźżąęčřšžőűşğıðþășțđ'].map((c): [string, Weights] => [c, { other: 1 }]),
]);

/** Spelling patterns of unknown words (length ≥ 3). */
export const PATTERNS: ReadonlyArray<readonly [RegExp, Weights]> = [
  [/sch/, { de: 0.3, nl: 0.2 }],
  [/(?:ung|ungen|keit|heit|schaft|chen)$/, { de: 0.5 }],
  [/lich$/, { de: 0.4 }],
  [/tz|pf/, { de: 0.3 }],
  [/ing$|ings$/, { en: 0.5 }],
  [/ght/, { en: 0.5 }],
  [/^th|th$/, { en: 0.4 }],
  [/(?:ness|ful|less|ous)$/, { en: 0.4 }],
  [/ly$/, { en: 0.3 }],
  [/w/, { en: 0.15, de: 0.1, nl: 0.1 }],
  [/tions?$/, { en: 0.25, fr: 0.25 }],
  [/(?:eau|eaux|aux)$/, { fr: 0.5 }],
  [/(?:eux|euse|euses)$/, { fr: 0.5 }],
  [/ez$/, { fr: 0.3 }],
  [/oi|ou/, { fr: 0.15 }],
  [/(?:ción|ciones|sión|siones)$/, { es: 0.7 }],
  [/(?:dad|dades)$/, { es: 0.5 }],
  [/(?:ito|ita|itos|itas)$/, { es: 0.3 }],
  [/(?:ado|ada|ados|adas)$/, { es: 0.2, pt: 0.2 }],
  [/ll[oa]s?$/, { es: 0.3, it: 0.1 }],
  [/(?:zione|zioni)$/, { it: 0.7 }],
  [/gli|gn|cch|ggi|zz/, { it: 0.3 }],
  [/(?:etto|etta|ino|ina)$/, { it: 0.2 }],
  [/mente$/, { es: 0.2, it: 0.2, pt: 0.2 }],
  [/(?:ção|ções|são|sões)$/, { pt: 0.8 }],
  [/nh|lh/, { pt: 0.4 }],
  [/(?:agem|agens)$/, { pt: 0.4 }],
  [/ij/, { nl: 0.6 }],
  [/aa|uu/, { nl: 0.4 }],
  [/oe/, { nl: 0.2 }],
  [/(?:heid|lijk|tje|tjes)$/, { nl: 0.6 }],
];
