// Dates a message names ("tuesday", "yesterday", "last week", "gestern", "la semaine dernière",
// "el jueves", "昨天", "上周", "先週"): each becomes a span of days before now, which the router
// compares with when each task was created, last active and finished. Days are UTC days and weeks
// start on Monday (the workspace has no time zone of its own yet). Pure.

export type DateSpan = { from: Date; to: Date; phrase: string };

const DAY = 86_400_000;

const WEEKDAYS: [RegExp, number][] = [
  // 0 = Sunday … 6 = Saturday (Date.getUTCDay)
  [/\b(sunday|sonntag|dimanche|domingo)s?\b|(?:周|星期|礼拜)[日天]|日曜/u, 0],
  [/\b(monday|montag|lundi|lunes)s?\b|(?:周|星期|礼拜)一|月曜/u, 1],
  [/\b(tuesday|dienstag|mardi|martes)s?\b|(?:周|星期|礼拜)二|火曜/u, 2],
  [/\b(wednesday|mittwoch|mercredi|miercoles)s?\b|(?:周|星期|礼拜)三|水曜/u, 3],
  [/\b(thursday|donnerstag|jeudi|jueves)s?\b|(?:周|星期|礼拜)四|木曜/u, 4],
  [/\b(friday|freitag|vendredi|viernes)s?\b|(?:周|星期|礼拜)五|金曜/u, 5],
  [/\b(saturday|samstag|sonnabend|samedi|sabado)s?\b|(?:周|星期|礼拜)六|土曜/u, 6],
];

const DAY_BEFORE_YESTERDAY = /\b(day before yesterday|vorgestern|avant hier|anteayer|antes de ayer)\b|前天|一昨日|おととい/u;
const YESTERDAY = /\b(yesterday|gestern|d hier|hier soir|hier matin|ayer)\b|昨天|昨日|きのう/u;
const TODAY = /\b(today|this morning|heute|heute morgen|aujourd hui|ce matin|hoy|esta manana)\b|今天|今早|今朝|きょう/u;
const LAST_WEEK = /\b(last week|letzte[nr]? woche|vorige[nr]? woche|vergangene[nr]? woche|semaine derniere|semaine passee|semana pasada)\b|上周|上星期|上礼拜|先週/u;
const THIS_WEEK = /\b(this week|diese[rn]? woche|cette semaine|esta semana)\b|这周|这星期|本周|今週/u;
const LAST_MONTH = /\b(last month|letzte[nr]? monat|vorige[nr]? monat|mois dernier|mes pasado)\b|上个月|上月|先月/u;
const WEEKEND = /\b(weekend|wochenende|week end|fin de semana)\b|周末|週末/u;
const DAYS_AGO = /\b(\d{1,2}) days? ago\b|\bvor (\d{1,2}) tagen\b|\bil y a (\d{1,2}) jours?\b|\bhace (\d{1,2}) dias\b|(\d{1,2}) ?天前|(\d{1,2}) ?日前/u;

/** Midnight (UTC) of the day `days` before now's day. */
const dayStart = (now: Date, days = 0) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - days * DAY);

/**
 * The spans of days a message names, and the message without those phrases (so that "tuesday" is
 * not also a word to match). `n` is the normalized text (text.ts normalize).
 */
export function dateSpans(n: string, now: Date): { spans: DateSpan[]; rest: string } {
  const spans: DateSpan[] = [];
  let rest = n;
  const take = (re: RegExp, span: (m: RegExpMatchArray) => { from: Date; to: Date } | null) => {
    const m = rest.match(re);
    if (!m) return;
    const s = span(m);
    if (s) spans.push({ ...s, phrase: m[0] });
    rest = rest.replace(m[0], ' ');
  };
  const today = dayStart(now);
  take(DAY_BEFORE_YESTERDAY, () => ({ from: dayStart(now, 2), to: dayStart(now, 1) }));
  take(YESTERDAY, () => ({ from: dayStart(now, 1), to: today }));
  take(TODAY, () => ({ from: today, to: now }));
  const monday = dayStart(now, (now.getUTCDay() + 6) % 7);
  take(LAST_WEEK, () => ({ from: new Date(monday.getTime() - 7 * DAY), to: monday }));
  take(THIS_WEEK, () => ({ from: monday, to: now }));
  take(LAST_MONTH, () => {
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    return { from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)), to: first };
  });
  take(WEEKEND, () => {
    // The most recent Saturday and Sunday that have begun.
    const back = (now.getUTCDay() + 1) % 7;
    const saturday = dayStart(now, back);
    return { from: saturday, to: new Date(Math.min(now.getTime(), saturday.getTime() + 2 * DAY)) };
  });
  take(DAYS_AGO, (m) => {
    const k = Number(m.slice(1).find((x) => x !== undefined));
    return { from: dayStart(now, k), to: dayStart(now, k - 1) };
  });
  for (const [re, weekday] of WEEKDAYS) {
    take(re, () => {
      // The most recent such day before today ("tuesday" said on a Sunday: five days ago).
      const back = (now.getUTCDay() - weekday + 7) % 7 || 7;
      return { from: dayStart(now, back), to: dayStart(now, back - 1) };
    });
  }
  return { spans, rest: rest.replace(/\s+/g, ' ').trim() };
}

/** Whether any of the dates falls in any of the spans. */
export function inSpans(dates: (Date | null | undefined)[], spans: DateSpan[]): boolean {
  return spans.some((s) => dates.some((d) => !!d && d.getTime() >= s.from.getTime() && d.getTime() < s.to.getTime()));
}
