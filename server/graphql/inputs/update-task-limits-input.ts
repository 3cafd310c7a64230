import { builder } from '../builder.ts';
import { AutonomyLevelEnum } from '../enums/autonomy-level.ts';

export const UpdateTaskLimitsInput = builder.inputType('UpdateTaskLimitsInput', {
  fields: (t) => ({
    taskId: t.id({ required: true }),
    autonomy: t.field({ type: AutonomyLevelEnum, required: false }),
    perActionFreeCents: t.int({ required: false }),
    budgetCapCents: t.int({ required: false }),
    approvedBudgetCents: t.int({ required: false, description: 'Spending permission for the plan; needs the approve scope.' }),
  }),
});
