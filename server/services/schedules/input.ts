// What a schedule may be, checked at the service boundary: shapes with zod, then the rules of time
// (a cron expression that parses and comes, a zone this server knows, a one-off time ahead) in
// domain/schedule-slots.ts. A refused input is BAD_USER_INPUT with one plain sentence naming the
// field (and, for the rules of time, an extensions.reason), and nothing is written.
import { z } from 'zod';
import { canonicalTimeZone, cronProblem, timeZoneProblem } from '../../domain/schedule-slots.ts';
import { badInput, ErrorReason } from '../../errors.ts';

/** A one-off run may be set at most this far ahead. */
const MAX_AHEAD_MS = 10 * 366 * 86_400_000;

const Title = z.string().trim().min(1, 'title must not be empty').max(200, 'title must be at most 200 characters');
const Text = z
  .string()
  .trim()
  .min(1, 'text must say what to send or do; it is empty')
  .max(20_000, 'text must be at most 20000 characters');
const Cron = z.string().max(100, 'cron must be at most 100 characters');
const Zone = z.string().max(64, 'timeZone must be at most 64 characters');
const Cap = z.number().int('budgetCapCents must be whole cents').min(0, 'budgetCapCents must not be negative').max(100_000_000, 'budgetCapCents must be at most 100000000 (one million dollars)');
const Kind = z.enum(['MESSAGE', 'TASK']);

export const CreateScheduleInput = z.object({
  workspaceId: z.string().uuid(),
  kind: Kind,
  /** Defaults to the text's first line. */
  title: Title.optional(),
  text: Text,
  cron: Cron.optional(),
  runAt: z.date().optional(),
  /** Defaults to the workspace's time zone. */
  timeZone: Zone.optional(),
  budgetCapCents: Cap.nullable().optional(),
});

export const UpdateScheduleInput = z.object({
  scheduleId: z.string().uuid(),
  expectedVersion: z.number().int().min(1, 'expectedVersion must be a version the schedule had (1 or more)'),
  kind: Kind.optional(),
  title: Title.optional(),
  text: Text.optional(),
  cron: Cron.optional(),
  runAt: z.date().optional(),
  timeZone: Zone.optional(),
  budgetCapCents: Cap.nullable().optional(),
});

export const ScheduleIdInput = z.object({ scheduleId: z.string().uuid() });

/** zod's answer as BAD_USER_INPUT: our messages name their field; zod's own get it in front. */
export function parseScheduleInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const fields = r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const first = r.error.issues[0]!;
  const name = String(first.path[0] ?? 'input');
  const message = first.message.startsWith(name) ? first.message : `${name}: ${first.message}`;
  throw badInput(message, { argument: name, fields });
}

/** The zone a schedule keeps, canonical ("europe/berlin" → "Europe/Berlin"); refused when unknown. */
export function checkedTimeZone(zone: string): string {
  const name = canonicalTimeZone(zone);
  if (!name) throw badInput(timeZoneProblem(zone)!, { argument: 'timeZone', reason: ErrorReason.UNKNOWN_TIME_ZONE });
  return name;
}

/** The cron expression as stored (fields separated by one space); refused with the field at fault. */
export function checkedCron(cron: string): string {
  const problem = cronProblem(cron);
  if (problem) throw badInput(problem, { argument: 'cron', reason: ErrorReason.INVALID_CRON });
  return cron.trim().split(/\s+/).join(' ');
}

/** A one-off time: ahead of `now`, and not absurdly far. */
export function checkedRunAt(runAt: Date, now: Date): Date {
  if (Number.isNaN(runAt.getTime()) || runAt.getTime() <= now.getTime()) {
    throw badInput(`runAt must be in the future; ${Number.isNaN(runAt.getTime()) ? 'it is not a date' : `${runAt.toISOString()} has passed`}`, { argument: 'runAt', reason: ErrorReason.RUN_AT_NOT_AHEAD });
  }
  if (runAt.getTime() - now.getTime() > MAX_AHEAD_MS) {
    throw badInput('runAt must be at most ten years ahead', { argument: 'runAt', reason: ErrorReason.RUN_AT_NOT_AHEAD });
  }
  return runAt;
}

/** Exactly one way of saying when: a cron expression (repeats) or runAt (once). */
export function oneWhen(input: { cron?: string | undefined; runAt?: Date | undefined }, required: boolean): void {
  if (input.cron !== undefined && input.runAt !== undefined) {
    throw badInput('Say when with either cron (to repeat) or runAt (to run once), not both', { argument: 'cron' });
  }
  if (required && input.cron === undefined && input.runAt === undefined) {
    throw badInput('Say when: give cron (to repeat, e.g. "0 9 * * 1" for Mondays at 09:00) or runAt (to run once)', { argument: 'cron' });
  }
}

/** A budget cap is for the task a TASK schedule makes; a message is routed like any message and takes none. */
export function checkCapFits(kind: 'MESSAGE' | 'TASK', cap: number | null | undefined): void {
  if (kind === 'MESSAGE' && cap != null) {
    throw badInput('budgetCapCents applies to the task each run of a TASK schedule makes; a MESSAGE schedule takes none', { argument: 'budgetCapCents' });
  }
}

/** The first line of the text, as a title. */
export const titleFrom = (text: string): string => {
  const line = text.trim().split('\n')[0]!.trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
};
