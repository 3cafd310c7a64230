// pauseSchedule / resumeSchedule. Pausing takes the next run away (nothing runs while paused, and
// nothing missed while paused is made up later); resuming sets it to the first slot after now — for
// a one-off, its time if that is still ahead, else nothing is left to run (give it a new runAt).
// Both are idempotent: pausing a paused schedule changes nothing and keeps its version.
import type { z } from 'zod';
import type { Viewer } from '../../auth/viewer.ts';
import { nextSlotAfter } from '../../domain/schedule-slots.ts';
import type { ScheduleRow } from '../../store/schedules.ts';
import type { Deps } from '../deps.ts';
import { manageSchedule } from './access.ts';
import type { ScheduleIdInput } from './input.ts';

function setPaused(deps: Deps, viewer: Viewer, raw: z.input<typeof ScheduleIdInput>, paused: boolean, now: Date): Promise<ScheduleRow> {
  return manageSchedule(deps, viewer, raw, paused ? 'schedule paused' : 'schedule resumed', (current) => {
    if (current.paused === paused) return null;
    const nextRunAt = paused ? null : current.cron ? nextSlotAfter(current.cron, current.timeZone, now) : current.runAt && current.runAt > now ? current.runAt : null;
    return { paused, nextRunAt };
  });
}

export const pauseSchedule = (deps: Deps, viewer: Viewer, raw: z.input<typeof ScheduleIdInput>, now = new Date()) => setPaused(deps, viewer, raw, true, now);
export const resumeSchedule = (deps: Deps, viewer: Viewer, raw: z.input<typeof ScheduleIdInput>, now = new Date()) => setPaused(deps, viewer, raw, false, now);
