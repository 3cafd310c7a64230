// The language codes the product speaks, and how the Latin-script scorer indexes its buckets.
// Every other module of the detector shares these; keep the order of LATIN stable, since bucket
// indexes are derived from it and the lexicon and scores are laid out by them.

export type LanguageCode = 'en' | 'de' | 'fr' | 'es' | 'it' | 'nl' | 'pt' | 'zh' | 'ja' | 'ko' | 'ru' | 'und';

export interface LanguageDetection {
  language: LanguageCode;
  /** 0..1; 0 for 'und'. */
  confidence: number;
}

export const LANGUAGE_NAMES: Record<LanguageCode, string> = {
  en: 'English',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  it: 'Italian',
  nl: 'Dutch',
  pt: 'Portuguese',
  zh: 'Chinese',
  ja: 'Japanese',
  ko: 'Korean',
  ru: 'Russian',
  und: 'Undetermined',
};

/** Default confidence needed to switch a task to another language. */
export const DEFAULT_SWITCH_CONFIDENCE = 0.5;

/** The Latin-script languages scored over lexicons, in bucket order. */
export const LATIN = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt'] as const;
export type LatinLanguage = (typeof LATIN)[number];
export const OTHER = LATIN.length; // bucket index for "a Latin-script language we do not support"
export const BUCKETS = LATIN.length + 1;
export const idx = (l: LatinLanguage): number => LATIN.indexOf(l);

/** Evidence for some Latin-script languages (or for "other"), per bucket name. */
export type Weights = Partial<Record<LatinLanguage | 'other', number>>;
export const bucketOf = (k: LatinLanguage | 'other'): number => (k === 'other' ? OTHER : idx(k));
