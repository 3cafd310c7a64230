// The task state machine, as a pure function. A task has at most one terminal state; the database
// enforces the same rule with a trigger (migration `init`), so no writer can break it.

export const TASK_STATUSES = [
  'QUEUED',
  'RUNNING',
  'WAITING',
  'PAUSED',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'BUDGET_EXCEEDED',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TERMINAL_STATUSES: readonly TaskStatus[] = ['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'];
export const isTerminal = (s: TaskStatus) => TERMINAL_STATUSES.includes(s);

/** What can happen to a task. User signals: pause, resume, cancel. The rest belong to the runtime. */
export type TaskTransition =
  | 'start' // a worker begins a turn
  | 'wait' // waiting on a job or a human
  | 'requeue' // more work to do; schedule the next turn
  | 'pause'
  | 'resume'
  | 'cancel'
  | 'complete'
  | 'fail'
  | 'exceedBudget';

const live: readonly TaskStatus[] = ['QUEUED', 'RUNNING', 'WAITING', 'PAUSED'];

const rules: Record<TaskTransition, { from: readonly TaskStatus[]; to: TaskStatus }> = {
  start: { from: ['QUEUED'], to: 'RUNNING' },
  wait: { from: ['RUNNING', 'QUEUED'], to: 'WAITING' },
  requeue: { from: ['RUNNING', 'WAITING'], to: 'QUEUED' },
  pause: { from: ['QUEUED', 'RUNNING', 'WAITING'], to: 'PAUSED' },
  resume: { from: ['PAUSED'], to: 'QUEUED' },
  cancel: { from: live, to: 'CANCELLED' },
  complete: { from: ['QUEUED', 'RUNNING', 'WAITING'], to: 'COMPLETED' },
  fail: { from: live, to: 'FAILED' },
  exceedBudget: { from: live, to: 'BUDGET_EXCEEDED' },
};

export type TransitionDecision =
  | { kind: 'move'; from: TaskStatus; to: TaskStatus }
  /** Already where the transition leads and it is idempotent (cancel of a cancelled task). */
  | { kind: 'noop'; status: TaskStatus }
  | { kind: 'reject'; from: TaskStatus; reason: string };

export function decideTransition(from: TaskStatus, t: TaskTransition): TransitionDecision {
  const rule = rules[t];
  if (rule.from.includes(from)) return { kind: 'move', from, to: rule.to };
  if (t === 'cancel' && from === 'CANCELLED') return { kind: 'noop', status: from };
  if (t === 'pause' && from === 'PAUSED') return { kind: 'noop', status: from };
  if (t === 'resume' && (from === 'QUEUED' || from === 'RUNNING' || from === 'WAITING')) {
    return { kind: 'noop', status: from };
  }
  if (isTerminal(from)) {
    return { kind: 'reject', from, reason: `Task already ended as ${from}; it cannot ${t}` };
  }
  return { kind: 'reject', from, reason: `A ${from} task cannot ${t}` };
}
