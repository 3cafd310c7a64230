import { builder } from '../builder.ts';
import { AutonomyLevelEnum } from '../enums/autonomy-level.ts';

export const UpdateTaskLimitsInput = builder.inputType('UpdateTaskLimitsInput', {
  description: "Overrides of a task's limits; fields left out stay as they are.",
  fields: (t) => ({
    taskId: t.id({ required: true, description: 'The task (Task.id).' }),
    autonomy: t.field({ type: AutonomyLevelEnum, required: false, description: "This task's autonomy level instead of the workspace's." }),
    perActionFreeCents: t.int({ required: false, description: "This task's confirmation-free amount per paid action, in US cents." }),
    budgetCapCents: t.int({ required: false, description: 'Hard cap for this task, in US cents: at it the task ends as BUDGET_EXCEEDED or waits for a person to raise it (WorkspaceSettings.atBudgetCap).' }),
    approvedBudgetCents: t.int({ required: false, description: 'Spending permission for the plan, in US cents; needs the approve scope.' }),
  }),
});
