// The watchdog finds work the queue lost, from the database alone (the source of truth):
//  1. RUNNING turns whose lease expired (a worker died or froze) → wake-up at their generation;
//  2. QUEUED turns whose wake-up is older than `staleMs` (the job was lost or is stuck) → re-send;
//  3. runnable tasks with unconsumed inbox items but no live turn → a new turn (a waiting task's
//     job results excepted: the job's end decides whether to wake it).
// Several watchdogs may run at once: wake-ups are deduplicated by (turn, generation) and a task has
// at most one live turn (partial unique index).
import { transactWithEvents } from '../channel/unit-of-work.ts';
import type { RuntimeDeps } from './deps.ts';
import { ensureTurn } from '../store/turns.ts';

export type WatchdogReport = { expiredLeases: number; staleQueued: number; inboxWithoutTurn: number };

export async function watchdogTick(rt: RuntimeDeps, opts: { staleMs: number }): Promise<WatchdogReport> {
  // enqueued_at throttles the re-sends: several watchdogs, and ticks faster than a worker picks
  // a job up, would otherwise send the same takeover wake-up again and again.
  const expired = await rt.prisma.$queryRawUnsafe<{ id: string; generation: number }[]>(
    `UPDATE turns SET enqueued_at = now()
      WHERE id IN (SELECT id FROM turns WHERE status = 'RUNNING' AND lease_expires_at < now()
                     AND enqueued_at < now() - ($1::int * interval '1 millisecond') LIMIT 500)
      RETURNING id, generation`,
    Math.min(opts.staleMs, 2000),
  );
  // Taken-over turns go to the recovery queue: reserved slots run them before any new work waits.
  await Promise.all(expired.map((t) => rt.scheduler.enqueueTurn(rt.prisma, { turnId: t.id, generation: t.generation }, { recovery: true })));

  const stale = await rt.prisma.$queryRawUnsafe<{ id: string; generation: number }[]>(
    `UPDATE turns SET enqueued_at = now()
      WHERE id IN (SELECT id FROM turns WHERE status = 'QUEUED'
                     AND enqueued_at < now() - ($1::int * interval '1 millisecond') LIMIT 500)
      RETURNING id, generation`,
    opts.staleMs,
  );
  await Promise.all(stale.map((t) => rt.scheduler.enqueueTurn(rt.prisma, { turnId: t.id, generation: t.generation })));

  const orphans = await rt.prisma.$queryRawUnsafe<{ id: string; workspace_id: string }[]>(
    `SELECT k.id, k.workspace_id FROM tasks k
      WHERE k.status IN ('QUEUED', 'RUNNING', 'WAITING')
        AND EXISTS (SELECT 1 FROM inbox_items i WHERE i.task_id = k.id AND i.consumed_at IS NULL AND i.withdrawn_at IS NULL
                      -- A job result of a task that waits (on other jobs or a person) is not a reason
                      -- to run: the job's end decided in its own transaction whether to wake it.
                      AND NOT (k.status = 'WAITING' AND i.kind = 'SIGNAL' AND i.signal = 'JOB_RESULT'))
        AND NOT EXISTS (SELECT 1 FROM turns t WHERE t.task_id = k.id AND t.status IN ('QUEUED', 'RUNNING'))
      LIMIT 500`,
  );
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
