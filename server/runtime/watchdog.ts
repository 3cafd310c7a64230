// The watchdog finds work the queue lost, from the database alone (the source of truth):
//  1. RUNNING turns whose lease expired (a worker died or froze) → wake-up at their generation;
//  2. QUEUED turns whose wake-up is older than `staleMs` (the job was lost or is stuck) → re-send;
//  3. runnable tasks with unconsumed inbox items but no live turn → a new turn (a waiting task's
//     job results excepted: the job's end decides whether to wake it).
// Several watchdogs may run at once: wake-ups are deduplicated by (turn, generation) and a task has
// at most one live turn (partial unique index).
import { transactWithEvents } from '../channel/unit-of-work.ts';
import type { RuntimeDeps } from './deps.ts';
import { takeExpiredLeases, takeStaleQueuedTurns, tasksWithUnreadInboxAndNoTurn } from '../store/journal/recovery.ts';
import { ensureTurn } from '../store/turns.ts';

export type WatchdogReport = { expiredLeases: number; staleQueued: number; inboxWithoutTurn: number };

export async function watchdogTick(rt: RuntimeDeps, opts: { staleMs: number }): Promise<WatchdogReport> {
  // Takeover wake-ups are throttled harder than stale ones (at most every 2 s): a dead worker's turn
  // should be retried soon, but not re-sent on every tick.
  const expired = await takeExpiredLeases(rt.prisma, Math.min(opts.staleMs, 2000));
  // Taken-over turns go to the recovery queue: reserved slots run them before any new work waits.
  await Promise.all(expired.map((t) => rt.scheduler.enqueueTurn(rt.prisma, { turnId: t.id, generation: t.generation }, { recovery: true })));

  const stale = await takeStaleQueuedTurns(rt.prisma, opts.staleMs);
  await Promise.all(stale.map((t) => rt.scheduler.enqueueTurn(rt.prisma, { turnId: t.id, generation: t.generation })));

  const orphans = await tasksWithUnreadInboxAndNoTurn(rt.prisma);
  let created = 0;
  for (const k of orphans) {
    const { value } = await transactWithEvents(rt, (tx) => ensureTurn(tx, rt.scheduler, { id: k.id, workspaceId: k.workspace_id }));
    if (value.created) created++;
  }
  const report = { expiredLeases: expired.length, staleQueued: stale.length, inboxWithoutTurn: created };
  if (expired.length || stale.length || created) rt.log.info('watchdog re-enqueued work', report);
  return report;
}

export function startWatchdog(
  rt: RuntimeDeps,
  opts: { intervalMs: number; staleMs: number; alsoEachTick?: () => Promise<unknown> },
): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    watchdogTick(rt, { staleMs: opts.staleMs })
      .then(() => opts.alsoEachTick?.())
      .catch((e) => rt.log.warn('watchdog tick failed', { error: (e as Error).message }))
      .finally(() => (running = false));
  }, opts.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
