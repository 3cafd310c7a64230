// Which worker process writes: a worker runs its turns, watchdog and job reconciliation inside
// `asWorker(workerId, …)`, and every event appended meanwhile records that worker id
// (task_events.worker_id), whoever the event's actor is. The API's own writes carry none.
import { AsyncLocalStorage } from 'node:async_hooks';

// One context per process, whichever copy of this module reads it: a runtime plugin may import
// the server's sources while the server itself runs from its bundle (two module instances).
const slot = Symbol.for('atelier.channel.writer');
const writer: AsyncLocalStorage<string> = ((globalThis as Record<symbol, unknown>)[slot] ??= new AsyncLocalStorage<string>()) as AsyncLocalStorage<string>;

/** Runs `fn` (and everything it starts) as the worker `workerId`. */
export function asWorker<T>(workerId: string, fn: () => T): T {
  return writer.run(workerId, fn);
}

/** The worker on whose behalf the current code runs, if any. */
export function currentWorker(): string | null {
  return writer.getStore() ?? null;
}
