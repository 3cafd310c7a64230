// The webhook send queue (pg-boss). One job per attempt, sent in the transaction that makes the
// attempt due: the one that writes the delivery (dispatch, a PING, a redelivery) or that records
// the previous attempt (a retry, with startAfter). So a committed delivery always has its next
// attempt queued, and a rolled-back one never does.
import { fromPrisma, type PgBoss } from 'pg-boss';
import type { WebhookSettings } from '../../config.ts';
import type { Tx } from '../../db/client.ts';
import type { Scheduler } from '../../store/scheduler.ts';

export const WEBHOOK_SEND_QUEUE = 'atelier-webhook-send';

/** Attempt `attempt` (1-based) of series `series` of a delivery. */
export type SendJob = { workspaceId: string; deliveryId: string; series: number; attempt: number };

export async function ensureWebhookQueue(boss: PgBoss, settings: Pick<WebhookSettings, 'timeoutMs'>): Promise<void> {
  // The schedule of attempts is ours (send.ts). pg-boss retries a job only when its handler threw
  // or its worker died mid-attempt (the job expires a little after the attempt's own timeout).
  // `notify`: a new delivery is picked up at once, not at a worker's next poll.
  const expireInSeconds = Math.ceil(settings.timeoutMs / 1000) + 30;
  await boss.createQueue(WEBHOOK_SEND_QUEUE, { policy: 'standard', notify: true, retryLimit: 5, retryDelay: 2, retryBackoff: true, expireInSeconds });
  await boss.updateQueue(WEBHOOK_SEND_QUEUE, { notify: true, retryLimit: 5, expireInSeconds }).catch(() => {});
}

/** Queues attempts inside the caller's transaction. */
export async function enqueueSends(tx: Tx, scheduler: Scheduler, jobs: readonly { job: SendJob; startAfter?: Date }[]): Promise<void> {
  if (!jobs.length) return;
  await scheduler.boss.insert(
    WEBHOOK_SEND_QUEUE,
    jobs.map((j) => ({ data: j.job, ...(j.startAfter ? { startAfter: j.startAfter } : {}) })),
    { db: fromPrisma(tx as never) },
  );
}
