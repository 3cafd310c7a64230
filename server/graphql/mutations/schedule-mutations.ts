// Schedule mutations (members with write access, auth/mutation-policy.ts; the services check who
// may change which schedule): thin resolvers over server/services/schedules. A refused input is a
// typed error with one sentence, and nothing is written.
import { createSchedule } from '../../services/schedules/create-schedule.ts';
import { deleteSchedule } from '../../services/schedules/delete-schedule.ts';
import { pauseSchedule, resumeSchedule } from '../../services/schedules/pause-schedule.ts';
import { updateSchedule } from '../../services/schedules/update-schedule.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { CreateScheduleInput } from '../inputs/create-schedule-input.ts';
import { DeleteScheduleInput, PauseScheduleInput, ResumeScheduleInput } from '../inputs/schedule-id-input.ts';
import { UpdateScheduleInput } from '../inputs/update-schedule-input.ts';
import { DeleteSchedulePayload, SchedulePayload } from '../payloads/schedule-payload.ts';

const scheduleId = (id: unknown) => parseGlobalId(String(id), 'Schedule', 'input.scheduleId');
/** An optional input field: null and absent both mean "not given". */
const given = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

builder.mutationFields((t) => ({
  createSchedule: t.field({
    type: SchedulePayload,
    description:
      'Schedule a message or a task, once (runAt) or again and again (cron), in the workspace\'s time zone unless another is given. Bad input (a cron expression that is not five valid fields, an unknown time zone, a runAt that has passed, empty text) is BAD_USER_INPUT with a sentence, and nothing is saved.',
    args: { input: t.arg({ type: CreateScheduleInput, required: true, description: 'What and when.' }) },
    resolve: async (_r, { input }, ctx) => ({
      schedule: await createSchedule(ctx.deps, ctx.viewer, {
        workspaceId: parseGlobalId(String(input.workspaceId), 'Workspace', 'input.workspaceId'),
        kind: input.kind,
        text: input.text,
        title: given(input.title),
        cron: given(input.cron),
        runAt: given(input.runAt),
        timeZone: given(input.timeZone),
        budgetCapCents: given(input.budgetCapCents),
      }),
    }),
  }),
  updateSchedule: t.field({
    type: SchedulePayload,
    description: "Change what a schedule says or when it runs (its creator only), against the version you saw: a stale expectedVersion is a CONFLICT (extensions.currentVersion) and writes nothing.",
    args: { input: t.arg({ type: UpdateScheduleInput, required: true, description: 'What to change.' }) },
    resolve: async (_r, { input }, ctx) => ({
      schedule: await updateSchedule(ctx.deps, ctx.viewer, {
        scheduleId: scheduleId(input.scheduleId),
        expectedVersion: input.expectedVersion,
        kind: given(input.kind),
        title: given(input.title),
        text: given(input.text),
        cron: given(input.cron),
        runAt: given(input.runAt),
        timeZone: given(input.timeZone),
        budgetCapCents: input.clearBudgetCap ? null : given(input.budgetCapCents),
      }),
    }),
  }),
  pauseSchedule: t.field({
    type: SchedulePayload,
    description: 'Pause a schedule (its creator or an owner): nothing runs until it is resumed, and what comes due meanwhile is not made up later. Pausing a paused schedule changes nothing.',
    args: { input: t.arg({ type: PauseScheduleInput, required: true, description: 'The schedule.' }) },
    resolve: async (_r, { input }, ctx) => ({ schedule: await pauseSchedule(ctx.deps, ctx.viewer, { scheduleId: scheduleId(input.scheduleId) }) }),
  }),
  resumeSchedule: t.field({
    type: SchedulePayload,
    description: 'Resume a paused schedule (its creator or an owner): it runs next at its first slot after now (a one-off whose time has passed has nothing left to run).',
    args: { input: t.arg({ type: ResumeScheduleInput, required: true, description: 'The schedule.' }) },
    resolve: async (_r, { input }, ctx) => ({ schedule: await resumeSchedule(ctx.deps, ctx.viewer, { scheduleId: scheduleId(input.scheduleId) }) }),
  }),
  deleteSchedule: t.field({
    type: DeleteSchedulePayload,
    description: 'Delete a schedule (its creator or an owner): nothing more runs. Tasks and messages its runs made stay.',
    args: { input: t.arg({ type: DeleteScheduleInput, required: true, description: 'The schedule.' }) },
    resolve: async (_r, { input }, ctx) => ({ schedule: await deleteSchedule(ctx.deps, ctx.viewer, { scheduleId: scheduleId(input.scheduleId) }) }),
  }),
}));
