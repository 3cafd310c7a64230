// Named reasons for a worker to stop writing. Both are expected control flow, not failures.

/** The turn was claimed by a newer execution generation; this worker may no longer write. */
export class LeaseLost extends Error {
  constructor(
    readonly turnId: string,
    readonly generation: number,
  ) {
    super(`lease lost on turn ${turnId} (generation ${generation} was superseded)`);
    this.name = 'LeaseLost';
  }
}
export const isLeaseLost = (e: unknown): e is LeaseLost => e instanceof LeaseLost;

/** The task was paused, cancelled or otherwise ended: stop at this boundary, write nothing more. */
export class TaskStopped extends Error {
  constructor(
    readonly taskId: string,
    readonly status: string,
  ) {
    super(`task ${taskId} is ${status}`);
    this.name = 'TaskStopped';
  }
}
export const isTaskStopped = (e: unknown): e is TaskStopped => e instanceof TaskStopped;

/** An inbox item the step read was withdrawn or replaced before the decision committed: ask again. */
export class InboxChanged extends Error {
  constructor(readonly taskId: string) {
    super(`inbox of task ${taskId} changed during the model call`);
    this.name = 'InboxChanged';
  }
}
export const isInboxChanged = (e: unknown): e is InboxChanged => e instanceof InboxChanged;

/**
 * A tool needs a person's decision before it may act (a paid action above a threshold). The call
 * stays STARTED, the turn suspends (task WAITING, no worker held), and resolving the approval
 * requeues the task: the call is replayed with the same idempotency key and finds the decision.
 */
export class AwaitingApproval extends Error {
  constructor(
    readonly approvalId: string,
    readonly title: string,
  ) {
    super(`waiting for approval: ${title}`);
    this.name = 'AwaitingApproval';
  }
}
export const isAwaitingApproval = (e: unknown): e is AwaitingApproval => e instanceof AwaitingApproval;

/** The task's budget cap would be crossed: the task ends as BUDGET_EXCEEDED, its state intact. */
export class BudgetExceeded extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'BudgetExceeded';
  }
}
export const isBudgetExceeded = (e: unknown): e is BudgetExceeded => e instanceof BudgetExceeded;
