// The languages the product writes in (the thread's replies, a task's cards and delivery, the
// offline model's texts), and how each writes money, dates and quotations. Pure.

export const REPLY_LANGUAGES = ['en', 'de', 'fr', 'es', 'zh', 'ja'] as const;
export type ReplyLanguage = (typeof REPLY_LANGUAGES)[number];

export const isReplyLanguage = (l: unknown): l is ReplyLanguage => typeof l === 'string' && (REPLY_LANGUAGES as readonly string[]).includes(l);

/**
 * The first supported language among the candidates (the asker's words, then the task's language,
 * …); English when none is. A detected 'und' or an unsupported language is skipped.
 */
export function replyLanguage(...candidates: (string | null | undefined)[]): ReplyLanguage {
  for (const c of candidates) if (isReplyLanguage(c)) return c;
  return 'en';
}

const LOCALE: Record<ReplyLanguage, string> = { en: 'en-US', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', zh: 'zh-CN', ja: 'ja-JP' };

/** US cents as the language writes dollars ("$1.20", "1,20 $", "1,20 $US", "US$1.20"). */
export function formatMoney(lang: ReplyLanguage, cents: number): string {
  return new Intl.NumberFormat(LOCALE[lang], { style: 'currency', currency: 'USD' }).format(cents / 100);
}

/** A calendar day in UTC, spelled the language's way ("December 1, 2026", "1. Dezember 2026", "2026年12月1日"). */
export function formatDate(lang: ReplyLanguage, d: Date): string {
  return new Intl.DateTimeFormat(LOCALE[lang], { dateStyle: 'long', timeZone: 'UTC' }).format(d);
}

/** A quotation with the language's marks (“…”, „…“, « … », «…», 「…」). */
export function quote(lang: ReplyLanguage, s: string): string {
  switch (lang) {
    case 'de':
      return `„${s}“`;
    case 'fr':
      return `« ${s} »`;
    case 'es':
      return `«${s}»`;
    case 'zh':
    case 'ja':
      return `「${s}」`;
    default:
      return `“${s}”`;
  }
}

/** Shortens to `max` characters on a word boundary where there is one, with an ellipsis. */
export function clip(s: string, max = 80): string {
  const one = s.replace(/\s+/g, ' ').trim();
  if (one.length <= max) return one;
  const cut = one.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}
