// Driving the schedule runner. pg-boss's own cron (boss.schedule, evaluated by its timekeeper in
// every process, sending one job per minute whichever process sees the minute first) puts a tick
// on SCHEDULE_TICK_QUEUE; whichever worker fetches it runs runDueSchedules. Each worker also ticks
// once when it starts, so a server coming back runs what came due while it was down at once, and
// on a timer of its own when one is configured (tests; slots are at most a minute apart anyway).
// Ticks never overlap within a process; across processes they may, and the runner's claim (SKIP
// LOCKED, one run per slot) makes that harmless.
import type { Deps } from '../deps.ts';
import { runDueSchedules, type TickResult } from './run-due.ts';

export const SCHEDULE_TICK_QUEUE = 'atelier-schedule-tick';

export type ScheduleWorker = {
  /** Runs a tick now (or joins the one running) and returns what it did. */
  tick(): Promise<TickResult | null>;
  stop(): Promise<void>;
};

/** Creates the tick queue and its minute cron (idempotent: every worker does it at start). */
export async function ensureScheduleTick(deps: Deps): Promise<void> {
  const boss = deps.scheduler.boss;
  // `short`: a tick still queued when the next minute's comes is not doubled (the next does the same
  // work); `notify`: an idle worker fetches it at once. A failed tick is not retried: the next one is.
  await boss.createQueue(SCHEDULE_TICK_QUEUE, { policy: 'short', notify: true, retryLimit: 0, expireInSeconds: 5 * 60 });
  await boss.schedule(SCHEDULE_TICK_QUEUE, '* * * * *', null, { tz: 'UTC' });
}

export async function startScheduleWorker(deps: Deps, opts: { tickMs?: number; now?: () => Date } = {}): Promise<ScheduleWorker> {
  await ensureScheduleTick(deps);
  let running: Promise<TickResult | null> | null = null;
  let stopped = false;
  const tick = (): Promise<TickResult | null> => {
    if (stopped) return Promise.resolve(null);
    running ??= runDueSchedules(deps, opts.now?.() ?? new Date())
      .catch((e: unknown) => {
        deps.log.warn('schedule tick failed; the next one tries again', { error: (e as Error).message });
        return null;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  // One slot; woken by NOTIFY when the tick is sent, the poll is only the backstop.
  const id = await deps.scheduler.boss.work(SCHEDULE_TICK_QUEUE, { batchSize: 1, pollingIntervalSeconds: 10 }, async () => {
    await tick();
  });
  deps.scheduler.track(SCHEDULE_TICK_QUEUE, id);
  const timer = opts.tickMs ? setInterval(() => void tick(), opts.tickMs) : null;
  timer?.unref();
  // What came due while no worker ran: at once, not at the next minute.
  void tick();
  return {
    tick,
    stop: async () => {
      stopped = true;
      if (timer) clearInterval(timer);
      await deps.scheduler.boss.offWork(SCHEDULE_TICK_QUEUE);
      await running;
    },
  };
}
