// Language of a short chat message, as a pure and deterministic function (no dependencies, no I/O).
// A task keeps the language of the user's own words: detected from the original message and updated
// only when the user clearly switches (`nextTaskLanguage`).
//
// How it decides:
//  1. Strip what is not the user's own prose: code, URLs, e-mails, @mentions, #tags/hex colours, file
//     names, quoted text (product names, captions to render), tokens with digits (v2, 4k), camelCase /
//     snake_case identifiers and, in mixed-case text, all-caps acronyms (PNG, RGB).
//  2. Count the scripts, in rough "word" units. Han and kana → zh / ja (kana or Japanese-only kanji
//     forms → ja), Hangul → ko, Cyrillic → ru; the dominant script wins and the share of the others
//     lowers the confidence ("purity").
//  3. For Latin script, score en/de/fr/es/it/nl/pt over small lexicons (function words, chat words,
//     and creative-studio vocabulary). A word listed for k languages gives 1/k to each. Unknown words
//     give weak evidence from characteristic letters (ß, ñ, ç, ã …) and endings (-ción, -ção, -ung,
//     -zione, -ij …). Letters of other Latin-script languages (å ø ł ş …) feed an "other" bucket, which
//     yields 'und'.
//  Confidence = margin between the best and second-best score × amount of evidence × script purity.
//
// The word lists and letter tables live in ./language/ beside the code that scores with them; this
// module is the public face other code imports.

export { DEFAULT_SWITCH_CONFIDENCE, LANGUAGE_NAMES, type LanguageCode, type LanguageDetection } from './language/codes.ts';
export { detectLanguage, nextTaskLanguage } from './language/detect.ts';
