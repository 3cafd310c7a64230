// Cancel reaches the provider at once: when this process commits the end of a task (cancelled,
// failed, over budget) or a new checklist (a change of direction re-opens or drops a step), the
// jobs nobody wants any more are cancelled upstream right after the commit — whatever path made
// the change: signalTask, a "stop the PPT" in the thread, a confirm-cancel card, a REVISE the worker
// applied, a merge. Reconciliation (reconcile.ts) stays the sweep behind it for what this misses
// (a process that died after its commit, a provider that could not be reached).
//
// Invariant: at most one cancellation pass per task runs at a time in this process; a change that
// arrives during a pass runs one more pass after it, so the last change is always seen.
import type { CommittedEvents, EventNotifier } from '../channel/notifier.ts';
import type { EventRow } from '../channel/types.ts';
import { cancelUnwantedJobs } from './reconcile.ts';
import type { JobDeps } from './job-deps.ts';

const ENDED = new Set(['CANCELLED', 'FAILED', 'BUDGET_EXCEEDED']);

/** An event after which a task's live jobs may have become unwanted. */
export function mayLeaveJobsUnwanted(e: Pick<EventRow, 'type' | 'payload'>): boolean {
  if (e.type === 'CHECKLIST_UPDATED') return true;
  if (e.type !== 'TASK_STATUS_CHANGED') return false;
  const to = (e.payload as { to?: unknown } | null)?.to;
  return typeof to === 'string' && ENDED.has(to);
}

/** Starts cancelling upstream after each commit that may leave jobs unwanted; returns the stop function. */
export function cancelUpstreamOnCommit(notifier: EventNotifier, jobs: JobDeps): { stop: () => void; idle: () => Promise<void> } {
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  const run = (taskId: string): void => {
    if (running.has(taskId)) {
      again.add(taskId);
      return;
    }
    const pass = cancelUnwantedJobs(jobs, { taskId })
      .then(() => undefined)
      .catch((e) => jobs.log.warn('cancelling jobs upstream failed; reconciliation retries', { taskId, error: (e as Error).message }))
      .finally(() => {
        running.delete(taskId);
        if (again.delete(taskId)) run(taskId);
      });
    running.set(taskId, pass);
  };
  const onEvents: CommittedEvents = (events) => {
    for (const taskId of new Set(events.filter(mayLeaveJobsUnwanted).map((e) => e.taskId))) run(taskId);
  };
  const stop = notifier.onEvents(onEvents);
  return {
    stop,
    /** Resolves when no pass is running (for shutting down cleanly). */
    idle: async () => {
      while (running.size) await Promise.allSettled([...running.values()]);
    },
  };
}
