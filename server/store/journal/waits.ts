// What a task waits on, as the turn's end and a job's end both read it: generation jobs not yet final,
// remote agents' answers not yet in, and approvals no person has resolved. Both readers must agree on these predicates, or a task could
// be woken by one and suspended again by the other; so they are stated once, here.
import type { Tx } from '../../db/client.ts';

/** Job statuses that still owe the task a result (the job's end wakes it). */
export const LIVE_JOB_STATUSES = ['SUBMITTING', 'QUEUED', 'RUNNING', 'UNKNOWN'] as const;

/** The task's live jobs, `except` one (the job whose end is being applied). */
export async function countLiveJobs(tx: Tx, taskId: string, opts: { except?: string } = {}): Promise<number> {
  return tx.generationJob.count({
    where: { taskId, ...(opts.except !== undefined ? { id: { not: opts.except } } : {}), status: { in: [...LIVE_JOB_STATUSES] } },
  });
}

/**
 * Steps handed to remote agents that answer by callback and have not answered yet (sent: the remote
 * task is known). Like a live job, each owes the task a result and its answer wakes the task.
 */
export async function countOpenDelegations(tx: Tx, taskId: string): Promise<number> {
  return tx.a2aDelegation.count({ where: { taskId, answeredAt: null, remoteTaskId: { not: null } } });
}

/** What the task waits on from outside: live jobs and open delegations (`except` a job). */
export async function countOutstanding(tx: Tx, taskId: string, opts: { except?: string } = {}): Promise<number> {
  const [jobs, delegations] = await Promise.all([countLiveJobs(tx, taskId, opts), countOpenDelegations(tx, taskId)]);
  return jobs + delegations;
}

/** Every job the task ever ordered, final or not: part of its progress mark. */
export async function countJobs(tx: Tx, taskId: string): Promise<number> {
  return tx.generationJob.count({ where: { taskId } });
}

/** The task's cards waiting for a person: only that person's decision wakes the task. */
export async function countPendingApprovals(tx: Tx, taskId: string): Promise<number> {
  return tx.approval.count({ where: { taskId, status: 'PENDING' } });
}

/**
 * The task's turns that are queued or running. A signal to a task that waits on jobs (a change of
 * direction, added context) starts a turn while the task stays WAITING; that turn owns what
 * happens next, so a job's end must not complete the task under it.
 */
export async function countLiveTurns(tx: Tx, taskId: string): Promise<number> {
  return tx.turn.count({ where: { taskId, status: { in: ['QUEUED', 'RUNNING'] } } });
}

/**
 * Whether a run of the task is under way: a turn queued or running, or work outside (a job, a
 * remote agent's task) still owed. What the REJECT input policy refuses against.
 */
export async function isTaskBusy(tx: Tx, taskId: string): Promise<boolean> {
  const [turns, outstanding] = await Promise.all([countLiveTurns(tx, taskId), countOutstanding(tx, taskId)]);
  return turns + outstanding > 0;
}
