// createSchedule: a message or a task that recurs (cron) or runs once (runAt), in a time zone (the
// workspace's unless given). Its first slot is computed here, so the runner only ever compares
// nextRunAt with the clock.
import type { z } from 'zod';
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { nextSlotAfter } from '../../domain/schedule-slots.ts';
import { badInput } from '../../errors.ts';
import { countLiveSchedules, insertSchedule, MAX_SCHEDULES, type ScheduleRow } from '../../store/schedules.ts';
import type { Deps } from '../deps.ts';
import { checkCapFits, checkedCron, checkedRunAt, checkedTimeZone, CreateScheduleInput, oneWhen, parseScheduleInput, titleFrom } from './input.ts';
import { checkCapAllowed, workspaceTimeZone } from './settings.ts';

export async function createSchedule(deps: Deps, viewer: Viewer, raw: z.input<typeof CreateScheduleInput>, now = new Date()): Promise<ScheduleRow> {
  const input = parseScheduleInput(CreateScheduleInput, raw);
  requireWorkspace(viewer, input.workspaceId, 'write');
  oneWhen(input, true);
  checkCapFits(input.kind, input.budgetCapCents);
  const timeZone = checkedTimeZone(input.timeZone ?? (await workspaceTimeZone(deps, input.workspaceId)));
  const cron = input.cron !== undefined ? checkedCron(input.cron) : null;
  const runAt = input.runAt !== undefined ? checkedRunAt(input.runAt, now) : null;
  await checkCapAllowed(deps, viewer, input.workspaceId, input.budgetCapCents ?? null);
  if ((await countLiveSchedules(deps.prisma, input.workspaceId)) >= MAX_SCHEDULES) {
    throw badInput(`This workspace has ${MAX_SCHEDULES} schedules, the most it may hold; delete one first`, { argument: 'workspaceId' });
  }
  const row = await deps.prisma.$transaction((tx) =>
    insertSchedule(tx, {
      workspaceId: input.workspaceId,
      createdById: viewer.userId,
      kind: input.kind,
      title: input.title ?? titleFrom(input.text),
      text: input.text,
      cron,
      runAt,
      timeZone,
      budgetCapCents: input.budgetCapCents ?? null,
      nextRunAt: cron ? nextSlotAfter(cron, timeZone, now) : runAt,
    }),
  );
  deps.log.info('schedule created', { workspaceId: row.workspaceId, scheduleId: row.id, userId: viewer.userId, kind: row.kind });
  return row;
}
