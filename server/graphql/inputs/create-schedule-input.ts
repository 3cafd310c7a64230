import { builder } from '../builder.ts';
import { ScheduleKindEnum } from '../enums/schedule-kind.ts';

export const CreateScheduleInput = builder.inputType('CreateScheduleInput', {
  description: 'A message or task to run later. Say when with exactly one of cron (to repeat) or runAt (to run once).',
  fields: (t) => ({
    workspaceId: t.id({ required: true, description: 'The workspace (Workspace.id).' }),
    kind: t.field({ type: ScheduleKindEnum, required: true, description: 'Send a message, or start a task.' }),
    text: t.string({ required: true, description: "What to send (MESSAGE) or the task's goal (TASK); 1 to 20,000 characters." }),
    title: t.string({ required: false, description: 'A short name (at most 200 characters); default: the first line of the text.' }),
    cron: t.string({
      required: false,
      description: 'Five fields — minute hour day-of-month month day-of-week — read in timeZone: "0 9 * * 1" is Mondays at 09:00, "30 8 * * 1-5" weekdays at 08:30. Give this or runAt.',
    }),
    runAt: t.field({ type: 'DateTime', required: false, description: 'The one time it runs (in the future). Give this or cron.' }),
    timeZone: t.string({ required: false, description: 'IANA time zone, e.g. "Europe/Berlin"; default: the workspace\'s (WorkspaceSettings.timeZone).' }),
    budgetCapCents: t.int({
      required: false,
      description: "TASK only: hard budget cap (US cents) of each run's task; default: the workspace's cap per task. An integration's token may set at most that default.",
    }),
  }),
});
