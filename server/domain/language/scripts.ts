// Script counts of a cleaned message, in rough "word" units per script: runs of Latin, Cyrillic
// and other letters count once each; Han, kana and Hangul count characters.
import { JA_ONLY_KANJI, ZH_ONLY_HAN } from './script-letters.ts';

const enum Script {
  None,
  Latin,
  Cyrillic,
  Han,
  Kana,
  Hangul,
  Other,
}

function scriptOf(cp: number): Script {
  if (cp < 0x80) return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) ? Script.Latin : Script.None;
  if ((cp >= 0xc0 && cp <= 0x24f && cp !== 0xd7 && cp !== 0xf7) || (cp >= 0x1e00 && cp <= 0x1eff)) return Script.Latin;
  if (cp >= 0x400 && cp <= 0x4ff) return Script.Cyrillic;
  if ((cp >= 0x3040 && cp <= 0x30ff && cp !== 0x30fb) || (cp >= 0x31f0 && cp <= 0x31ff) || (cp >= 0xff66 && cp <= 0xff9f)) return Script.Kana;
  if ((cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0x20000 && cp <= 0x2ffff) || cp === 0x3005) return Script.Han;
  if ((cp >= 0xac00 && cp <= 0xd7af) || (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f)) return Script.Hangul;
  if (cp === 0x2019 || cp === 0x27 || cp === 0x2d) return Script.None;
  return OTHER_LETTER.test(String.fromCodePoint(cp)) ? Script.Other : Script.None;
}
const OTHER_LETTER = /\p{L}/u;

export interface ScriptCounts {
  latinWords: number;
  cyrillicWords: number;
  cyrillicLetters: number;
  otherWords: number;
  han: number;
  kana: number;
  hangul: number;
  jaKanji: number;
  zhHan: number;
}

export function countScripts(t: string): ScriptCounts {
  const c: ScriptCounts = { latinWords: 0, cyrillicWords: 0, cyrillicLetters: 0, otherWords: 0, han: 0, kana: 0, hangul: 0, jaKanji: 0, zhHan: 0 };
  let prev = Script.None;
  for (const ch of t) {
    const cp = ch.codePointAt(0)!;
    // Apostrophes and hyphens inside a word do not split it; combining marks belong to their letter.
    if (cp === 0x27 || cp === 0x2d || (cp >= 0x300 && cp <= 0x36f)) continue;
    const s = scriptOf(cp);
    switch (s) {
      case Script.Latin:
        if (prev !== s) c.latinWords++;
        break;
      case Script.Cyrillic:
        if (prev !== s) c.cyrillicWords++;
        c.cyrillicLetters++;
        break;
      case Script.Other:
        if (prev !== s) c.otherWords++;
        break;
      case Script.Han:
        c.han++;
        if (JA_ONLY_KANJI.has(ch)) c.jaKanji++;
        else if (ZH_ONLY_HAN.has(ch)) c.zhHan++;
        break;
      case Script.Kana:
        c.kana++;
        break;
      case Script.Hangul:
        c.hangul++;
        break;
      case Script.None:
        break;
    }
    prev = s;
  }
  return c;
}
