// Detection: clean the message, let the dominant script decide, and hand Latin script to the
// lexicon scorer; a task switches language only on a confident detection.
import { clean } from './clean.ts';
import { DEFAULT_SWITCH_CONFIDENCE, type LanguageCode, type LanguageDetection } from './codes.ts';
import { round, saturate, UND } from './confidence.ts';
import { detectLatin } from './latin.ts';
import { UKRAINIAN_ETC } from './script-letters.ts';
import { countScripts } from './scripts.ts';

/**
 * The language of a short chat message. Pure and deterministic. 'und' (confidence 0) when there is
 * no usable evidence: empty, emoji, numbers, acronyms, "ok", a tie, or a language we do not support.
 */
export function detectLanguage(text: string): LanguageDetection {
  if (!text) return UND;
  const t = clean(text);
  const c = countScripts(t);
  // Rough "words" per script: Chinese words are ~1.5 characters, Japanese kana runs and Korean words
  // longer; Latin, Cyrillic and other alphabets count whitespace-separated runs.
  const cjkUnits = c.han / 1.5 + c.kana / 2.5;
  const hangulUnits = c.hangul / 2.5;
  const total = cjkUnits + hangulUnits + c.latinWords + c.cyrillicWords + c.otherWords;
  if (total === 0) return UND;

  const dominant = Math.max(cjkUnits, hangulUnits, c.latinWords, c.cyrillicWords, c.otherWords);
  const purity = dominant / total;
  if (cjkUnits === dominant) {
    const n = c.han + c.kana;
    const japanese = c.kana >= 2 || c.kana / n >= 0.3 || (c.kana === 0 && c.jaKanji > c.zhHan);
    return { language: japanese ? 'ja' : 'zh', confidence: round(purity * saturate(n, 2.5)) };
  }
  if (hangulUnits === dominant) return { language: 'ko', confidence: round(purity * saturate(c.hangul, 2.5)) };
  if (c.latinWords === dominant) return detectLatin(t, purity);
  if (c.cyrillicWords === dominant) {
    // Ukrainian, Belarusian, Serbian, Macedonian: not Russian, and not supported.
    if (UKRAINIAN_ETC.test(t)) return UND;
    return { language: 'ru', confidence: round(purity * saturate(c.cyrillicLetters, 4)) };
  }
  return UND; // Greek, Arabic, Hebrew, Thai, Devanagari …
}

/**
 * The language a task should use after a new user message: switch only on a confident detection of
 * a different language; otherwise keep `current`. With no current language, any detection is taken
 * (weak evidence beats none); 'und' never replaces a language.
 */
export function nextTaskLanguage(current: LanguageCode | null, message: string, minConfidence: number = DEFAULT_SWITCH_CONFIDENCE): LanguageCode {
  const d = detectLanguage(message);
  if (d.language === 'und') return current ?? 'und';
  if (current === null || current === 'und') return d.language;
  return d.language !== current && d.confidence >= minConfidence ? d.language : current;
}
