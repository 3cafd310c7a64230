import { builder } from '../builder.ts';

export const BudgetCapBehaviorEnum = builder.enumType('BudgetCapBehavior', {
  description: 'What a task does when its next paid action would cross its budget cap.',
  values: {
    END: { description: 'The task ends as BUDGET_EXCEEDED (its state intact); raising the cap later means starting a new round.' },
    PAUSE: { description: 'The task waits on a BUDGET_CAP card; approving it raises the cap and the task continues exactly where it stopped (nothing is ordered twice). Rejecting ends it as BUDGET_EXCEEDED.' },
  } as const,
});
