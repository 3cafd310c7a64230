// Which worker process writes: a worker runs its turns, watchdog and job reconciliation inside
// `asWorker(workerId, …)`, and every event appended meanwhile records that worker id
// (task_events.worker_id), whoever the event's actor is. The API's own writes carry none.
import { AsyncLocalStorage } from 'node:async_hooks';

const writer = new AsyncLocalStorage<string>();

/** Runs `fn` (and everything it starts) as the worker `workerId`. */
export function asWorker<T>(workerId: string, fn: () => T): T {
  return writer.run(workerId, fn);
}

/** The worker on whose behalf the current code runs, if any. */
export function currentWorker(): string | null {
  return writer.getStore() ?? null;
}
