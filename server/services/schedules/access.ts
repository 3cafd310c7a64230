// Who may see and change a schedule. Every member sees the workspace's schedules; owners and
// members with the write scope make them. A schedule's runs act on its creator's behalf (the task is
// theirs, the message is theirs and lands in their thread), so only the creator changes what it
// says or when it runs; the creator or an owner may pause, resume or delete it. Another workspace's
// schedule does not exist for the caller (NOT_FOUND).
import { requireWorkspace, visibleWorkspaceIds, type Access } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { forbidden, notFound } from '../../errors.ts';
import type { z } from 'zod';
import { changeSchedule, liveSchedulesByIds, lockSchedule, type ScheduleRow } from '../../store/schedules.ts';
import { parseScheduleInput, ScheduleIdInput } from './input.ts';
import type { Deps } from '../deps.ts';

/** The live schedule, if the viewer may `access` it in its workspace; NOT_FOUND otherwise. */
export async function findSchedule(deps: Deps, viewer: Viewer, id: string, access: Access): Promise<ScheduleRow> {
  const [row] = await liveSchedulesByIds(deps.prisma, [id], visibleWorkspaceIds(viewer));
  if (!row) throw notFound('Schedule');
  requireWorkspace(viewer, row.workspaceId, access, 'Schedule');
  return row;
}

/** Changing what it says or when: its creator only. */
export function requireAuthor(viewer: Viewer, s: Pick<ScheduleRow, 'createdById'>): void {
  if (s.createdById !== viewer.userId) {
    throw forbidden("Only the person who made this schedule can change what it says or when it runs: its runs act on their behalf. An owner may pause or delete it.");
  }
}

/** Pausing, resuming, deleting: its creator or an owner. */
export function requireManager(viewer: Viewer, s: Pick<ScheduleRow, 'createdById' | 'workspaceId'>): void {
  const role = requireWorkspace(viewer, s.workspaceId, 'write', 'Schedule');
  if (s.createdById !== viewer.userId && role !== 'OWNER') {
    throw forbidden('Only the person who made this schedule or a workspace owner can pause, resume or delete it');
  }
}

/**
 * Pausing, resuming, deleting: checks the viewer may manage the schedule, then applies `change` to
 * the locked row (null: nothing to change, the row stays as it is, version included) and logs `what`.
 */
export async function manageSchedule(
  deps: Deps,
  viewer: Viewer,
  raw: z.input<typeof ScheduleIdInput>,
  what: string,
  change: (current: ScheduleRow) => Parameters<typeof changeSchedule>[3] | null,
): Promise<ScheduleRow> {
  const input = parseScheduleInput(ScheduleIdInput, raw);
  const found = await findSchedule(deps, viewer, input.scheduleId, 'write');
  requireManager(viewer, found);
  const row = await deps.prisma.$transaction(async (tx) => {
    const current = await lockSchedule(tx, found.workspaceId, found.id);
    if (!current) throw notFound('Schedule');
    const data = change(current);
    return data ? changeSchedule(tx, current.workspaceId, current.id, data) : current;
  });
  deps.log.info(what, { workspaceId: row.workspaceId, scheduleId: row.id, userId: viewer.userId });
  return row;
}
