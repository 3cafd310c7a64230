import { TASK_STATUSES } from '../../domain/task-status.ts';
import { builder } from '../builder.ts';

export const TaskStatusEnum = builder.enumType('TaskStatus', {
  description: 'Where a task is. COMPLETED, FAILED, CANCELLED and BUDGET_EXCEEDED are terminal: a task reaches at most one.',
  values: TASK_STATUSES,
});
