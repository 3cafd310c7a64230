// A worker: takes wake-up jobs from pg-boss and runs turns. Any number of worker processes may run;
// each can be killed at any moment without losing a run (the journal and the watchdog recover it).
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { RuntimeDeps } from './deps.ts';
import { runTurn } from './engine.ts';
import { startWatchdog } from './watchdog.ts';
import { startHeartbeat } from '../store/processes.ts';

export type WorkerHandle = { workerId: string; stop(): Promise<void> };

export async function startWorker(
  rt: RuntimeDeps,
  opts: {
    concurrency: number;
    watchdogMs: number;
    staleQueuedMs: number;
    alsoEachTick?: () => Promise<unknown>;
    /** Slots kept for taken-over turns (see scheduler.ts). */
    recoverySlots?: number;
    heartbeatMs?: number;
  },
): Promise<WorkerHandle> {
  const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const inFlight = new Set<Promise<unknown>>();
  const heartbeat = startHeartbeat(rt.prisma, rt.log, { id: workerId, kind: 'WORKER', concurrency: opts.concurrency, intervalMs: opts.heartbeatMs ?? 5000, running: () => inFlight.size });
  await rt.scheduler.work(
    opts.concurrency,
    async (job) => {
      const p = runTurn(rt, job.turnId, { workerId });
      inFlight.add(p);
      try {
        await p;
      } finally {
        inFlight.delete(p);
      }
    },
    opts.recoverySlots ?? 1,
  );
  const watchdog = startWatchdog(rt, { intervalMs: opts.watchdogMs, staleMs: opts.staleQueuedMs, alsoEachTick: opts.alsoEachTick });
  await heartbeat.ready();
  rt.log.info('worker started', { workerId, concurrency: opts.concurrency });
  return {
    workerId,
    stop: async () => {
      await heartbeat.stop();
      // Stop fetching first: a job fetched while stopping would otherwise be marked done unrun.
      await rt.scheduler.stopWorking().catch((e) => rt.log.warn('stopping the queue consumer failed', { error: (e as Error).message }));
      watchdog.stop();
      // Turns in flight keep their leases until they expire; another worker takes them over.
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((r) => setTimeout(r, 2000))]);
    },
  };
}
