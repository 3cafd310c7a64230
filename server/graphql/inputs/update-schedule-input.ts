import { builder } from '../builder.ts';
import { ScheduleKindEnum } from '../enums/schedule-kind.ts';

export const UpdateScheduleInput = builder.inputType('UpdateScheduleInput', {
  description:
    "Changes to a schedule (its creator only); fields left out stay as they are. A new cron, runAt or timeZone moves the next run to the first slot after now. Giving cron turns a one-off into a repeating schedule, giving runAt the other way round.",
  fields: (t) => ({
    scheduleId: t.id({ required: true, description: 'The schedule (Schedule.id).' }),
    expectedVersion: t.int({ required: true, description: 'The version you saw (Schedule.version); if it changed meanwhile the update is a CONFLICT and nothing is written.' }),
    kind: t.field({ type: ScheduleKindEnum, required: false, description: 'Send a message, or start a task.' }),
    title: t.string({ required: false, description: 'A short name (at most 200 characters).' }),
    text: t.string({ required: false, description: "What to send, or the task's goal (1 to 20,000 characters)." }),
    cron: t.string({ required: false, description: 'A new five-field cron expression (the schedule repeats from now on).' }),
    runAt: t.field({ type: 'DateTime', required: false, description: 'A new single time, in the future (the schedule runs once).' }),
    timeZone: t.string({ required: false, description: 'A new IANA time zone for the cron expression.' }),
    budgetCapCents: t.int({ required: false, description: "TASK only: a new hard budget cap (US cents) for each run's task." }),
    clearBudgetCap: t.boolean({ required: false, description: "True: each run's task takes the workspace's default cap again." }),
  }),
});
