// Follow-ups the agent asks for (follow_up_at): when one may be asked for, when it wakes, and what a
// wake does to its task. Pure: no I/O; the clock and the settings are passed in.
//
// Quiet hours are a range of wall-clock minutes in the workspace's IANA time zone, [from, to): a
// follow-up due inside them wakes when they end. A range with from > to crosses midnight (22:00–07:00);
// from = to is no range at all (never "quiet all day": a follow-up must always be able to wake).
// The end is a wall time on a calendar day of the zone, turned into an instant with the zone's rules,
// so it is DST-correct: "until 07:00" in Europe/Berlin is 06:00 UTC in winter and 05:00 UTC in
// summer, also on the night the clocks change; an end that does not exist that day (02:30 when the
// clocks jump from 02:00 to 03:00) is the first instant after the gap, and an end that happens twice
// (when the clocks go back) is its first occurrence not before the follow-up was due.
import type { TaskStatus } from './task-status.ts';
import { isTerminal } from './task-status.ts';

/** The furthest ahead a follow-up may be due: past it, a person should plan it, not the agent. */
export const MAX_FOLLOW_UP_DAYS = 90;
export const MAX_FOLLOW_UP_MINUTES = MAX_FOLLOW_UP_DAYS * 24 * 60;

export type QuietHours = { timeZone: string; fromMinute: number | null; toMinute: number | null };

const MINUTE = 60_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A formatter of wall-clock parts in `zone` (cached: building one costs far more than using it). An unknown zone reads as UTC. */
function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23' };
    try {
      f = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone });
    } catch {
      // The settings form validates the zone; a zone this runtime does not know (older ICU data)
      // must not stop a wake, so it reads as UTC.
      f = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
    }
    formatters.set(zone, f);
  }
  return f;
}

type Wall = { y: number; mo: number; d: number; h: number; mi: number; s: number };

/** The wall-clock reading of `at` in `zone`. */
export function wallClock(at: Date, zone: string): Wall {
  const parts = Object.fromEntries(formatterFor(zone).formatToParts(at).map((p) => [p.type, p.value]));
  return { y: Number(parts.year), mo: Number(parts.month), d: Number(parts.day), h: Number(parts.hour) % 24, mi: Number(parts.minute), s: Number(parts.second) };
}

/** The wall-clock reading as if it were UTC, in ms (milliseconds of `at` kept): compares wall times. */
const wallMs = (at: Date, zone: string): number => {
  const w = wallClock(at, zone);
  return Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s, at.getUTCMilliseconds());
};

/**
 * The first instant not before `notBefore` whose wall clock in `zone` reads `minute` (minutes after
 * midnight) on the calendar day y-mo-d — or, when that wall time does not exist that day (a DST
 * gap), the first instant after the gap.
 */
function instantOfWall(y: number, mo: number, d: number, minute: number, zone: string, notBefore: Date): Date {
  const target = Date.UTC(y, mo - 1, d, 0, minute);
  // The zone's offset can only be the one before or the one after a nearby transition: try both.
  const offsets = [target - 12 * 60 * MINUTE, target + 12 * 60 * MINUTE].map((t) => wallMs(new Date(t), zone) - t);
  const exact = [...new Set(offsets.map((o) => target - o))]
    .filter((t) => wallMs(new Date(t), zone) === target && t >= notBefore.getTime())
    .sort((a, b) => a - b);
  if (exact[0] !== undefined) return new Date(exact[0]);
  // A gap: the wall clock jumps over `target`. Between the two candidates it is monotone; the first
  // instant whose wall time is at or past `target` is the transition itself.
  let lo = Math.min(...offsets.map((o) => target - o));
  let hi = Math.max(...offsets.map((o) => target - o));
  if (wallMs(new Date(hi), zone) < target) hi += 2 * 60 * MINUTE;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (wallMs(new Date(mid), zone) >= target) hi = mid;
    else lo = mid;
  }
  return new Date(Math.max(hi, notBefore.getTime()));
}

/** Whether quiet hours are set (both ends, and not the same minute). */
export function hasQuietHours(q: QuietHours): q is QuietHours & { fromMinute: number; toMinute: number } {
  return q.fromMinute !== null && q.toMinute !== null && q.fromMinute !== q.toMinute;
}

/** Whether `at` falls inside the quiet hours. */
export function isQuiet(at: Date, q: QuietHours): boolean {
  if (!hasQuietHours(q)) return false;
  const w = wallClock(at, q.timeZone);
  const m = w.h * 60 + w.mi;
  return q.fromMinute < q.toMinute ? m >= q.fromMinute && m < q.toMinute : m >= q.fromMinute || m < q.toMinute;
}

/**
 * When a follow-up due at `due` wakes: `due` itself outside quiet hours, else the instant the quiet
 * hours it falls in end. Invariant: the result is never before `due` and never inside quiet hours.
 */
export function wakeTimeFor(due: Date, q: QuietHours): Date {
  if (!isQuiet(due, q)) return due;
  const { fromMinute, toMinute } = q as QuietHours & { fromMinute: number; toMinute: number };
  const w = wallClock(due, q.timeZone);
  const m = w.h * 60 + w.mi;
  // A range across midnight that started this evening ends tomorrow; otherwise it ends today.
  const nextDay = fromMinute > toMinute && m >= fromMinute;
  const day = new Date(Date.UTC(w.y, w.mo - 1, w.d + (nextDay ? 1 : 0)));
  return instantOfWall(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), toMinute, q.timeZone, due);
}

/**
 * When the agent asked to be woken, from the tool's input: an instant (`at`) or minutes from now.
 * Returns the due instant, or a sentence for the model when it cannot be a follow-up.
 */
export function resolveDueAt(input: { at?: string; inMinutes?: number }, now: Date): { dueAt: Date } | { problem: string } {
  const dueAt = input.at !== undefined ? new Date(input.at) : new Date(now.getTime() + (input.inMinutes ?? 0) * MINUTE);
  if (Number.isNaN(dueAt.getTime())) return { problem: `"${String(input.at).slice(0, 60)}" is not a date and time: give an ISO 8601 date-time with its offset, such as "2026-06-12T09:00:00+02:00", or inMinutes.` };
  if (dueAt.getTime() <= now.getTime()) {
    return { problem: `${dueAt.toISOString()} is in the past (it is now ${now.toISOString()}): give a time ahead, or inMinutes.` };
  }
  if (dueAt.getTime() > now.getTime() + MAX_FOLLOW_UP_MINUTES * MINUTE) {
    return { problem: `${dueAt.toISOString()} is more than ${MAX_FOLLOW_UP_DAYS} days ahead: a follow-up may be at most ${MAX_FOLLOW_UP_DAYS} days away. Ask the user to plan anything later.` };
  }
  return { dueAt };
}

/**
 * What a follow-up's wake does to its task, by the task's state when the wake is applied:
 *  - `cancel`: the task has ended (its follow-ups are cancelled with it; this one slipped by);
 *  - `deliver`: the reminder goes into the inbox but no turn starts — a PAUSED task waits for a
 *    person to resume it, and a task waiting on a person's decision (an open card) is woken by that
 *    decision (a turn now would only replay the waiting call and suspend again);
 *  - `wake`: the reminder goes into the inbox and the task gets a turn (a waiting task is requeued).
 */
export type FollowUpWake = 'cancel' | 'deliver' | 'wake';

export function followUpWake(status: TaskStatus, pendingApprovals: number): FollowUpWake {
  if (isTerminal(status)) return 'cancel';
  if (status === 'PAUSED') return 'deliver';
  if (status === 'WAITING' && pendingApprovals > 0) return 'deliver';
  return 'wake';
}

/** The inbox item's text: the agent's own reminder, and that nobody asked again. */
export function followUpInboxText(f: { reason: string; dueAt: Date }): string {
  return `This is your own follow-up, asked for with follow_up_at for ${f.dueAt.toISOString()}: ${f.reason} — nobody sent a new request; check on it now and go on from what you find.`;
}
