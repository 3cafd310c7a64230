import { TASK_STATUSES } from '../../domain/task-status.ts';
import { builder } from '../builder.ts';

const described: Record<(typeof TASK_STATUSES)[number], string> = {
  QUEUED: 'Its next turn waits for a worker.',
  RUNNING: 'A worker is on it.',
  WAITING: 'Waiting for something outside it: a generation, or a person (an approval); statusReason says which.',
  PAUSED: 'Paused by a person (or stopped short of a limit); RESUME goes on.',
  COMPLETED: 'Finished, with its results (terminal).',
  FAILED: 'Ended without finishing; statusReason says why (terminal).',
  CANCELLED: 'Cancelled by a person (terminal).',
  BUDGET_EXCEEDED: 'Ended at its budget cap, state intact (terminal).',
};

export const TaskStatusEnum = builder.enumType('TaskStatus', {
  description: 'Where a task is. COMPLETED, FAILED, CANCELLED and BUDGET_EXCEEDED are terminal: a task reaches at most one.',
  values: Object.fromEntries(TASK_STATUSES.map((s) => [s, { description: described[s] }])) as Record<(typeof TASK_STATUSES)[number], { description: string }>,
});
