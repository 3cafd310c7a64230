// The message templates of one language: `textsFor(lang)`. One module per language (./en.ts …
// ./ja.ts) implements the same `Texts` (./types.ts), so a text missing in one language is a type
// error, not an English sentence in a German thread.
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { ja } from './ja.ts';
import { replyLanguage, type ReplyLanguage } from './languages.ts';
import type { Texts } from './types.ts';
import { zh } from './zh.ts';

export { REPLY_LANGUAGES, replyLanguage, type ReplyLanguage } from './languages.ts';
export type * from './types.ts';

const BY: Record<ReplyLanguage, Texts> = { en, de, fr, es, zh, ja };

/** The templates of the first supported language among the candidates (English when none is). */
export function textsFor(...candidates: (string | null | undefined)[]): Texts {
  return BY[replyLanguage(...candidates)];
}
