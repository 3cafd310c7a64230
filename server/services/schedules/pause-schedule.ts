// pauseSchedule / resumeSchedule. Pausing takes the next run away (nothing runs while paused, and
// nothing missed while paused is made up later); resuming sets it to the first slot after now — for
// a one-off, its time if that is still ahead, else nothing is left to run (give it a new runAt).
// Both are idempotent: pausing a paused schedule changes nothing and keeps its version.
import type { z } from 'zod';
import type { Viewer } from '../../auth/viewer.ts';
import { nextSlotAfter } from '../../domain/schedule-slots.ts';
import { notFound } from '../../errors.ts';
import { changeSchedule, lockSchedule, type ScheduleRow } from '../../store/schedules.ts';
import type { Deps } from '../deps.ts';
import { findSchedule, requireManager } from './access.ts';
import { parseScheduleInput, ScheduleIdInput } from './input.ts';

async function setPaused(deps: Deps, viewer: Viewer, raw: z.input<typeof ScheduleIdInput>, paused: boolean, now: Date): Promise<ScheduleRow> {
  const input = parseScheduleInput(ScheduleIdInput, raw);
  const found = await findSchedule(deps, viewer, input.scheduleId, 'write');
  requireManager(viewer, found);
  const row = await deps.prisma.$transaction(async (tx) => {
    const current = await lockSchedule(tx, found.workspaceId, found.id);
    if (!current) throw notFound('Schedule');
    if (current.paused === paused) return current;
    const nextRunAt = paused ? null : current.cron ? nextSlotAfter(current.cron, current.timeZone, now) : current.runAt && current.runAt > now ? current.runAt : null;
    return changeSchedule(tx, current.workspaceId, current.id, { paused, nextRunAt });
  });
  deps.log.info(paused ? 'schedule paused' : 'schedule resumed', { workspaceId: row.workspaceId, scheduleId: row.id, userId: viewer.userId });
  return row;
}

export const pauseSchedule = (deps: Deps, viewer: Viewer, raw: z.input<typeof ScheduleIdInput>, now = new Date()) => setPaused(deps, viewer, raw, true, now);
export const resumeSchedule = (deps: Deps, viewer: Viewer, raw: z.input<typeof ScheduleIdInput>, now = new Date()) => setPaused(deps, viewer, raw, false, now);
