// A worker: takes wake-up jobs from pg-boss and runs turns. Any number of worker processes may run;
// each can be killed at any moment without losing a run (the journal and the watchdog recover it).
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { RuntimeDeps } from './deps.ts';
import { runTurn } from './engine.ts';
import { startWatchdog } from './watchdog.ts';
import { startHeartbeat } from '../store/processes.ts';
import { asWorker } from '../channel/writer.ts';

export type WorkerStats = {
  /** Watchdog passes completed. */
  watchdogTicks: number;
  /** Reconciliation passes completed (see `reconcile`). */
  reconciliations: number;
};

export type WorkerHandle = { workerId: string; stop(): Promise<void>; /** What the worker's periodic work has done so far. */ stats?: () => WorkerStats };

export async function startWorker(
  rt: RuntimeDeps,
  opts: {
    concurrency: number;
    watchdogMs: number;
    staleQueuedMs: number;
    /**
     * Periodic job reconciliation, on a timer of its own: every `everyMs` (shorter or longer than the
     * watchdog's period), or every `watchdogMs` when unset. It talks to the provider and may wait
     * on it (a provider that is down), so it never runs inside the watchdog's pass: a slow
     * reconciliation must not delay finding expired leases (recovery comes first).
     */
    reconcile?: { run: () => Promise<unknown>; everyMs?: number };
    /** Periodic upkeep that is not recovery (the event log's retention sweep), on a timer of its own. */
    upkeep?: { run: () => Promise<unknown>; everyMs: number; name: string };
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
  const stats: WorkerStats = { watchdogTicks: 0, reconciliations: 0 };
  const reconcile = opts.reconcile;
  const reconcileOnce = async () => {
    if (!reconcile) return;
    await reconcile.run();
    stats.reconciliations++;
  };
  // The watchdog's and reconciliation's timers run as this worker: the events they write record it.
  const watchdog = asWorker(workerId, () => startWatchdog(rt, {
    intervalMs: opts.watchdogMs,
    staleMs: opts.staleQueuedMs,
    alsoEachTick: async () => {
      stats.watchdogTicks++;
    },
  }));
  const reconciler = reconcile
    ? asWorker(workerId, () => startPeriodic(reconcile.everyMs ?? opts.watchdogMs, reconcileOnce, (e) => rt.log.warn('job reconciliation failed', { error: (e as Error).message })))
    : null;
  const upkeep = opts.upkeep
    ? asWorker(workerId, () => startPeriodic(opts.upkeep!.everyMs, async () => void (await opts.upkeep!.run()), (e) => rt.log.warn(`${opts.upkeep!.name} failed`, { error: (e as Error).message })))
    : null;
  await heartbeat.ready();
  rt.log.info('worker started', { workerId, concurrency: opts.concurrency });
  return {
    workerId,
    stats: () => ({ ...stats }),
    stop: async () => {
      await heartbeat.stop();
      // Stop fetching first: a job fetched while stopping would otherwise be marked done unrun.
      await rt.scheduler.stopWorking().catch((e) => rt.log.warn('stopping the queue consumer failed', { error: (e as Error).message }));
      watchdog.stop();
      reconciler?.stop();
      upkeep?.stop();
      // Turns in flight keep their leases until they expire; another worker takes them over.
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((r) => setTimeout(r, 2000))]);
    },
  };
}

/** Runs `fn` every `everyMs`, never two at once (a pass still running when the next is due skips it). */
function startPeriodic(everyMs: number, fn: () => Promise<void>, onError: (e: unknown) => void): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    fn()
      .catch(onError)
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
