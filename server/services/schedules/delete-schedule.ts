// deleteSchedule: soft — the row stays (its runs name the tasks and messages it made) but nothing
// runs any more and it is gone from every list and lookup. A run already committed is not undone.
import type { z } from 'zod';
import type { Viewer } from '../../auth/viewer.ts';
import type { ScheduleRow } from '../../store/schedules.ts';
import type { Deps } from '../deps.ts';
import { manageSchedule } from './access.ts';
import type { ScheduleIdInput } from './input.ts';

export function deleteSchedule(deps: Deps, viewer: Viewer, raw: z.input<typeof ScheduleIdInput>, now = new Date()): Promise<ScheduleRow> {
  return manageSchedule(deps, viewer, raw, 'schedule deleted', () => ({ deletedAt: now, nextRunAt: null }));
}
