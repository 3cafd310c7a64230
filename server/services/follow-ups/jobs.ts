// The follow-up worker: consumes the wake jobs (each applied by fireFollowUp, once per follow-up
// whatever the queue does) and sweeps for pending follow-ups whose wake time passed without a job
// running — at start (a server that was down, a queue restored or emptied by hand) and then on a
// timer. The sweep only re-sends jobs: the queue's singleton key keeps one waiting job per
// follow-up, and a FIRED row ignores any job after the first, so a lost job never loses a wake and
// a found one never wakes twice.
import { duePendingFollowUps, FOLLOW_UP_QUEUE, sendFollowUpJob, type FollowUpJob } from '../../store/follow-ups.ts';
import type { Deps } from '../deps.ts';
import { fireFollowUp } from './wake.ts';

export type FollowUpWorker = {
  /** Re-sends the jobs of due pending follow-ups now; returns how many were due. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
};

/** Due follow-ups re-sent per sweep; more wait for the next one (they are being woken meanwhile). */
const SWEEP_BATCH = 500;

export async function sweepDueFollowUps(deps: Pick<Deps, 'prisma' | 'scheduler'>): Promise<number> {
  const due = await duePendingFollowUps(deps.prisma, SWEEP_BATCH);
  for (const f of due) await sendFollowUpJob(deps.prisma, deps.scheduler, { id: f.id, wakeAt: f.wake_at });
  return due.length;
}

export async function startFollowUpWorker(deps: Deps, opts: { sweepMs?: number; now?: () => Date } = {}): Promise<FollowUpWorker> {
  // One slot: a wake is one short transaction. The poll finds a job within a second of its
  // startAfter (jobs are sent ahead of time, so a NOTIFY at send would not help).
  const id = await deps.scheduler.boss.work<FollowUpJob>(FOLLOW_UP_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async (jobs) => {
    // A thrown error (a deadlock, the database going away) makes pg-boss retry the job.
    for (const j of jobs) await fireFollowUp(deps, j.data.followUpId, opts.now);
  });
  deps.scheduler.track(FOLLOW_UP_QUEUE, id);
  let stopped = false;
  let running: Promise<number> | null = null;
  const sweep = (): Promise<number> => {
    if (stopped) return Promise.resolve(0);
    running ??= sweepDueFollowUps(deps)
      .catch((e: unknown) => {
        deps.log.warn('follow-up sweep failed; the next one tries again', { error: (e as Error).message });
        return 0;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  await sweep();
  const timer = setInterval(() => void sweep(), opts.sweepMs ?? 60_000);
  timer.unref();
  return {
    sweep,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await deps.scheduler.boss.offWork(FOLLOW_UP_QUEUE);
      await running;
    },
  };
}
