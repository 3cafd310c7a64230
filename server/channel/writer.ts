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

/** The agent principal a run acts as: every AGENT event appended inside `asAgent` carries it. */
export type RunAgent = { id: string; version: number; run: string };

const agentSlot = Symbol.for('atelier.channel.agent');
const agent: AsyncLocalStorage<RunAgent> = ((globalThis as Record<symbol, unknown>)[agentSlot] ??= new AsyncLocalStorage<RunAgent>()) as AsyncLocalStorage<RunAgent>;

/** Runs `fn` (and everything it starts) as the run of an agent principal. */
export function asAgent<T>(who: RunAgent, fn: () => T): T {
  return agent.run(who, fn);
}

/** The run's agent principal, if the current code runs inside one. */
export function currentAgent(): RunAgent | null {
  return agent.getStore() ?? null;
}
