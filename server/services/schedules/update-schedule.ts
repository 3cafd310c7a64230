// updateSchedule: what a schedule says, or when, against the version its creator saw. A change
// based on an older version is refused (CONFLICT, extensions.currentVersion) and writes nothing, so
// two edits never overwrite each other. A change of when (cron, runAt, time zone) moves the next
// run to the first slot after now; a paused schedule stays paused (nothing ahead until resumed).
import type { z } from 'zod';
import type { Viewer } from '../../auth/viewer.ts';
import { nextSlotAfter } from '../../domain/schedule-slots.ts';
import { badInput, conflict, ErrorReason, notFound } from '../../errors.ts';
import { changeSchedule, lockSchedule, type ScheduleRow } from '../../store/schedules.ts';
import type { Deps } from '../deps.ts';
import { findSchedule, requireAuthor } from './access.ts';
import { checkCapFits, checkedCron, checkedRunAt, checkedTimeZone, oneWhen, parseScheduleInput, UpdateScheduleInput } from './input.ts';
import { checkCapAllowed } from './settings.ts';

export async function updateSchedule(deps: Deps, viewer: Viewer, raw: z.input<typeof UpdateScheduleInput>, now = new Date()): Promise<ScheduleRow> {
  const input = parseScheduleInput(UpdateScheduleInput, raw);
  const found = await findSchedule(deps, viewer, input.scheduleId, 'write');
  requireAuthor(viewer, found);
  const { scheduleId: _id, expectedVersion: _v, ...changes } = input;
  if (!Object.values(changes).some((v) => v !== undefined)) {
    throw badInput('Nothing to change: give a kind, title, text, cron, runAt, timeZone or budgetCapCents', { argument: 'input' });
  }
  oneWhen(input, false);
  const timeZone = input.timeZone !== undefined ? checkedTimeZone(input.timeZone) : undefined;
  const cron = input.cron !== undefined ? checkedCron(input.cron) : undefined;
  const runAt = input.runAt !== undefined ? checkedRunAt(input.runAt, now) : undefined;
  if (input.budgetCapCents !== undefined) await checkCapAllowed(deps, viewer, found.workspaceId, input.budgetCapCents);

  const row = await deps.prisma.$transaction(async (tx) => {
    const current = await lockSchedule(tx, found.workspaceId, found.id);
    if (!current) throw notFound('Schedule');
    if (current.version !== input.expectedVersion) {
      throw conflict(`This schedule was changed meanwhile (it is now at version ${current.version}); reload it and make your change again`, {
        reason: ErrorReason.STALE_BASE_VERSION,
        currentVersion: current.version,
      });
    }
    const kind = input.kind ?? current.kind;
    // Turning a TASK schedule into a MESSAGE one drops its cap (a message takes none), unless one is given.
    const cap = input.budgetCapCents !== undefined ? input.budgetCapCents : kind === 'MESSAGE' ? null : current.budgetCapCents;
    checkCapFits(kind, input.budgetCapCents);
    const when = {
      cron: cron !== undefined ? cron : runAt !== undefined ? null : current.cron,
      runAt: runAt !== undefined ? runAt : cron !== undefined ? null : current.runAt,
      timeZone: timeZone ?? current.timeZone,
    };
    // A one-off's runAt is an instant: another zone changes how it reads, not when it runs.
    const slotsMoved = when.cron !== null && (cron !== undefined || when.timeZone !== current.timeZone);
    const nextRunAt = current.paused ? null : runAt !== undefined ? runAt : slotsMoved ? nextSlotAfter(when.cron!, when.timeZone, now) : current.nextRunAt;
    return changeSchedule(tx, current.workspaceId, current.id, {
      kind,
      title: input.title,
      text: input.text,
      ...when,
      budgetCapCents: cap,
      nextRunAt,
    });
  });
  deps.log.info('schedule changed', { workspaceId: row.workspaceId, scheduleId: row.id, userId: viewer.userId, version: row.version });
  return row;
}
