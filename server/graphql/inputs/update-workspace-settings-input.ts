import { builder } from '../builder.ts';
import { AutonomyLevelEnum } from '../enums/autonomy-level.ts';
import { BudgetCapBehaviorEnum } from '../enums/budget-cap-behavior.ts';

export const UpdateWorkspaceSettingsInput = builder.inputType('UpdateWorkspaceSettingsInput', {
  description: "Changes of the workspace's settings; fields left out stay as they are.",
  fields: (t) => ({
    workspaceId: t.id({ required: true, description: 'The workspace (Workspace.id).' }),
    baseVersion: t.int({ required: false, description: 'The version you edited; a stale one is a CONFLICT.' }),
    perActionFreeCents: t.int({ required: false, description: 'Paid actions up to this price (US cents) need no confirmation (below the daily amount).' }),
    dailyFreeCents: t.int({ required: false, description: 'Spending per UTC day (US cents, workspace-wide) that needs no confirmation.' }),
    autonomy: t.field({ type: AutonomyLevelEnum, required: false, description: 'The autonomy level.' }),
    taskBudgetCapCents: t.int({ required: false, description: 'Default hard cap for a task, in US cents.' }),
    clearTaskBudgetCap: t.boolean({ required: false, description: 'Remove the default task cap.' }),
    atBudgetCap: t.field({ type: BudgetCapBehaviorEnum, required: false, description: 'What a task does at its cap: END or PAUSE (wait for a person to raise it).' }),
    timeZone: t.string({ required: false, description: 'IANA time zone for schedules and quiet hours, e.g. "Europe/Berlin".' }),
    followUpsEnabled: t.boolean({ required: false, description: 'Let the agent ask to be woken later (follow-ups).' }),
    quietFromMinute: t.int({ required: false, description: 'Start of the quiet hours (0–1439 minutes after midnight); set together with quietToMinute.' }),
    quietToMinute: t.int({ required: false, description: 'End of the quiet hours (0–1439); set together with quietFromMinute.' }),
    clearQuietHours: t.boolean({ required: false, description: 'Remove the quiet hours.' }),
    trustedDocumentsOnly: t.boolean({
      required: false,
      description: "True: this workspace's tokens may run only trusted documents (the web app's persisted operations), not documents of their own.",
    }),
  }),
});
