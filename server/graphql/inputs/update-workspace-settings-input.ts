import { builder } from '../builder.ts';
import { AutonomyLevelEnum } from '../enums/autonomy-level.ts';

export const UpdateWorkspaceSettingsInput = builder.inputType('UpdateWorkspaceSettingsInput', {
  fields: (t) => ({
    workspaceId: t.id({ required: true }),
    baseVersion: t.int({ required: false, description: 'The version you edited; a stale one is a CONFLICT.' }),
    perActionFreeCents: t.int({ required: false }),
    dailyFreeCents: t.int({ required: false }),
    autonomy: t.field({ type: AutonomyLevelEnum, required: false }),
    taskBudgetCapCents: t.int({ required: false }),
    clearTaskBudgetCap: t.boolean({ required: false, description: 'Remove the default task cap.' }),
  }),
});
