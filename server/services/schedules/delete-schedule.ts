// deleteSchedule: soft — the row stays (its runs name the tasks and messages it made) but nothing
// runs any more and it is gone from every list and lookup. A run already committed is not undone.
import type { z } from 'zod';
import type { Viewer } from '../../auth/viewer.ts';
import { notFound } from '../../errors.ts';
import { changeSchedule, lockSchedule, type ScheduleRow } from '../../store/schedules.ts';
import type { Deps } from '../deps.ts';
import { findSchedule, requireManager } from './access.ts';
import { parseScheduleInput, ScheduleIdInput } from './input.ts';

export async function deleteSchedule(deps: Deps, viewer: Viewer, raw: z.input<typeof ScheduleIdInput>, now = new Date()): Promise<ScheduleRow> {
  const input = parseScheduleInput(ScheduleIdInput, raw);
  const found = await findSchedule(deps, viewer, input.scheduleId, 'write');
  requireManager(viewer, found);
  const row = await deps.prisma.$transaction(async (tx) => {
    const current = await lockSchedule(tx, found.workspaceId, found.id);
    if (!current) throw notFound('Schedule');
    return changeSchedule(tx, current.workspaceId, current.id, { deletedAt: now, nextRunAt: null });
  });
  deps.log.info('schedule deleted', { workspaceId: row.workspaceId, scheduleId: row.id, userId: viewer.userId });
  return row;
}
