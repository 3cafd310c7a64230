// When a schedule runs (pure). A schedule recurs on a five-field cron expression, read in its time
// zone, or runs once at an instant. Its *slots* are the instants the expression names in that zone;
// cron-parser walks them with the zone's rules, so a slot is DST-correct: "every day at 09:00" in
// Europe/Berlin is 08:00 UTC in winter and 07:00 UTC in summer, a wall time that does not exist on
// the day the clocks go forward (02:30) falls on the first instant after the gap (03:30), and one
// that happens twice when they go back runs once, at its first occurrence.
//
// The runner stores the next slot to run (nextRunAt). When it looks at a schedule whose nextRunAt
// has passed, every slot from nextRunAt up to now came due while nobody ran them: they collapse into
// ONE run, for the latest of them, which records how many earlier ones it stands for (missedSlots).
// So a server that was down for three Mondays sends one message on its return, not four.
import { CronExpressionParser, type CronExpression } from 'cron-parser';

/** Slots counted when a schedule comes back from a long gap; beyond, missedSlots says this many. */
export const MAX_COUNTED_SLOTS = 10_000;

const FIELD_NAMES = ['minute', 'hour', 'day of the month', 'month', 'day of the week'] as const;
const FIELD_RANGES = ['0–59', '0–23', '1–31', '1–12 or JAN–DEC', '0–7 or SUN–SAT (0 and 7 are Sunday)'] as const;
const EXAMPLE = '"0 9 * * 1" (Mondays at 09:00)';

/** The zone's canonical IANA name ("europe/berlin" → "Europe/Berlin"), or null when no zone has that name. */
export function canonicalTimeZone(zone: string): string | null {
  if (!zone.trim() || zone.length > 64) return null;
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: zone.trim() }).resolvedOptions().timeZone;
    // Intl also takes fixed offsets ("+01:00"), which have no daylight saving time and no IANA
    // name: a schedule in one would drift by an hour twice a year against the people it is for.
    return /^[+-]\d/.test(name) ? null : name;
  } catch {
    return null;
  }
}

/** Why `zone` cannot be a schedule's time zone, in a sentence; null when it can. */
export function timeZoneProblem(zone: string): string | null {
  if (canonicalTimeZone(zone)) return null;
  return `"${zone.slice(0, 64)}" is not a time zone this server knows: use an IANA name such as "Europe/Berlin", "America/New_York" or "UTC".`;
}

const parse = (expr: string, timeZone: string, currentDate?: Date): CronExpression =>
  CronExpressionParser.parse(expr, { tz: timeZone, ...(currentDate ? { currentDate } : {}) });

/**
 * Why `expr` is not a usable five-field cron expression, in a sentence that names the field at
 * fault; null when it is usable (it parses, and names at least one instant that will come).
 */
export function cronProblem(expr: string): string | null {
  const text = expr.trim();
  if (!text) return `Give a cron expression, such as ${EXAMPLE}.`;
  if (text.startsWith('@')) return `Write the cron expression as five fields (minute, hour, day of the month, month, day of the week), such as ${EXAMPLE}; shortcuts like "${text.slice(0, 20)}" are not accepted.`;
  const fields = text.split(/\s+/);
  if (fields.length !== 5) {
    return `A cron expression has five fields (minute, hour, day of the month, month, day of the week), such as ${EXAMPLE}; "${text.slice(0, 100)}" has ${fields.length}.`;
  }
  try {
    const e = parse(text, 'UTC', new Date(0));
    e.next();
    return null;
  } catch {
    // Which field is at fault: each field alone, the others any value.
    for (let i = 0; i < 5; i++) {
      const alone = fields.map((f, j) => (j === i ? f : '*')).join(' ');
      try {
        parse(alone, 'UTC', new Date(0)).next();
      } catch {
        return `The ${FIELD_NAMES[i]} field "${fields[i]!.slice(0, 40)}" of "${text.slice(0, 100)}" is not valid: use ${FIELD_RANGES[i]}, with * for any, lists (1,3), ranges (1-5) and steps (*/15).`;
      }
    }
    return `The cron expression "${text.slice(0, 100)}" never matches a real date (such as the 30th of February).`;
  }
}

/** The first slot strictly after `after`; null when the expression names none (never for a checked one). */
export function nextSlotAfter(cron: string, timeZone: string, after: Date): Date | null {
  try {
    return parse(cron.trim(), timeZone, after).next().toDate();
  } catch {
    return null;
  }
}

/** The slot that runs now, how many earlier due slots it stands for, and the schedule's next slot. */
export type DueRun = { slotAt: Date; missedSlots: number; nextRunAt: Date | null };

/**
 * What runs at `now` for a schedule whose next slot is `nextRunAt`: nothing when that is still
 * ahead (or there is none); else the latest slot at or before `now`, with the count of the earlier
 * due slots it replaces, and the first slot after `now` as the next one (none for a one-off).
 * Invariant: the run's slot is ≤ now and the next slot is > now, so the same call with a later
 * `now` never names a slot that already ran.
 */
export function dueRun(s: { cron: string | null; timeZone: string; nextRunAt: Date | null }, now: Date): DueRun | null {
  if (!s.nextRunAt || s.nextRunAt.getTime() > now.getTime()) return null;
  if (!s.cron) return { slotAt: s.nextRunAt, missedSlots: 0, nextRunAt: null };
  let latest: Date | null = null;
  let count = 0;
  try {
    // From just before nextRunAt, so nextRunAt itself is the first slot counted.
    const walk = parse(s.cron, s.timeZone, new Date(s.nextRunAt.getTime() - 1));
    while (count < MAX_COUNTED_SLOTS) {
      const slot = walk.next().toDate();
      if (slot.getTime() > now.getTime()) break;
      latest = slot;
      count++;
    }
    // Counted to the bound: the latest slot is found walking back from now instead.
    if (count === MAX_COUNTED_SLOTS) latest = parse(s.cron, s.timeZone, new Date(now.getTime() + 1)).prev().toDate();
  } catch {
    latest = null;
  }
  // nextRunAt is always a slot of the expression it was computed from; should it not be one (the
  // expression was changed under it), it still runs once, as itself.
  if (!latest) return { slotAt: s.nextRunAt, missedSlots: 0, nextRunAt: nextSlotAfter(s.cron, s.timeZone, now) };
  return { slotAt: latest, missedSlots: count - 1, nextRunAt: nextSlotAfter(s.cron, s.timeZone, now) };
}

// ---- Plain words ----------------------------------------------------------------------------

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const INT = /^\d{1,2}$/;
const INT_LIST = /^\d{1,2}(,\d{1,2})*$/;

const pad = (n: number) => String(n).padStart(2, '0');
const ordinal = (n: number) => {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${tail}`;
};
/** "a", "a and b", "a, b and c". */
const andList = (xs: string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);
const ints = (field: string) => [...new Set(field.split(',').map(Number))].sort((a, b) => a - b);

function whichDays(dom: string, month: string, dow: string): string | null {
  const anyDom = dom === '*' || dom === '?';
  if (month !== '*') return null;
  if (anyDom && dow === '*') return 'Every day';
  if (anyDom && /^[0-7a-z,-]+$/i.test(dow)) {
    let days: number[];
    try {
      days = [...new Set(parse(`0 0 * * ${dow}`, 'UTC').fields.dayOfWeek.values.map((d) => Number(d) % 7))].sort((a, b) => a - b);
    } catch {
      return null;
    }
    if (days.length === 7) return 'Every day';
    if (days.join() === '1,2,3,4,5') return 'Every weekday (Monday to Friday)';
    if (days.join() === '0,6') return 'Every Saturday and Sunday';
    // Monday first, as a week is read.
    return `Every ${andList([...days.filter((d) => d > 0), ...days.filter((d) => d === 0)].map((d) => WEEKDAYS[d]!))}`;
  }
  if (dow === '*' && INT_LIST.test(dom)) return `On the ${andList(ints(dom).map(ordinal))} of every month`;
  return null;
}

function whichTimes(minute: string, hour: string): string | null {
  if (!INT_LIST.test(minute) || !INT_LIST.test(hour)) return null;
  const times = ints(hour).flatMap((h) => ints(minute).map((m) => `${pad(h)}:${pad(m)}`));
  return times.length <= 6 ? `at ${andList(times)}` : null;
}

/** The parts of a date-time in a zone, read by Intl (24-hour clock). */
function partsIn(at: Date, timeZone: string): Record<string, string> {
  const f = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
}

/** "Monday, 15 June 2026 at 09:00", in the zone's wall time. */
export function wallTime(at: Date, timeZone: string): string {
  const p = partsIn(at, timeZone);
  return `${p.weekday}, ${p.day} ${p.month} ${p.year} at ${p.hour}:${p.minute}`;
}

/**
 * The schedule in plain words, with its zone: "Every Monday at 09:00 (Europe/Berlin)", "Every
 * weekday (Monday to Friday) at 08:30 (UTC)", "Once on Friday, 12 June 2026 at 09:00 (Europe/Berlin)".
 * An expression with no plain reading is quoted as it is.
 */
export function describeSchedule(s: { cron: string | null; runAt: Date | null; timeZone: string }): string {
  const zone = ` (${s.timeZone})`;
  if (!s.cron) return s.runAt ? `Once on ${wallTime(s.runAt, s.timeZone)}${zone}` : `Never${zone}`;
  const [minute = '', hour = '', dom = '', month = '', dow = ''] = s.cron.trim().split(/\s+/);
  const days = whichDays(dom, month, dow);
  const times = whichTimes(minute, hour);
  if (days && times) return `${days} ${times}${zone}`;
  if (days === 'Every day') {
    if (minute === '*' && hour === '*') return `Every minute${zone}`;
    const step = /^\*\/(\d{1,2})$/.exec(minute);
    if (step && hour === '*') return `Every ${Number(step[1])} minutes${zone}`;
    const past = (m: number) => (m === 0 ? 'on the hour' : `at ${m} minutes past`);
    if (INT.test(minute) && hour === '*') return `Every hour, ${past(Number(minute))}${zone}`;
    const hours = /^\*\/(\d{1,2})$/.exec(hour);
    if (INT.test(minute) && hours) return `Every ${Number(hours[1])} hours, ${past(Number(minute))}${zone}`;
  }
  return `On the cron schedule "${s.cron.trim()}"${zone}`;
}
