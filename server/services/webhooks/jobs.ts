// A worker process's part in webhooks: the dispatcher that follows the event log (dispatch.ts) and
// the consumers of the send queue (send.ts), `concurrency` attempts at once. Started and stopped
// with the worker (app.ts); API-only processes only write deliveries and queue their attempts.
import { EVENTS_CHANNEL } from '../../channel/notifier.ts';
import { POLLING } from '../../store/scheduler.ts';
import type { Deps } from '../deps.ts';
import { WebhookDispatcher } from './dispatch.ts';
import { WEBHOOK_SEND_QUEUE, type SendJob } from './queue.ts';
import { sendDelivery } from './send.ts';
import { webhookSettings } from './settings.ts';

export type WebhookWorker = { dispatcher: WebhookDispatcher; stop(): Promise<void> };

export async function startWebhookWorker(deps: Deps): Promise<WebhookWorker> {
  const settings = webhookSettings(deps.config);
  const dispatcher = new WebhookDispatcher(deps);
  const unobserve = deps.listener.observe(EVENTS_CHANNEL, dispatcher);
  // A new attempt wakes the consumers by NOTIFY; the poll only finds retries coming due (they
  // wait at least retryBaseMs anyway), so idle consumers poll every 2 s rather than every 0.5 s.
  const polling = { ...POLLING, pollingIntervalSeconds: Math.min(2, Math.max(POLLING.pollingIntervalSeconds, settings.retryBaseMs / 1000)) };
  for (let i = 0; i < settings.concurrency; i++) {
    // A thrown error (the database unreachable) makes pg-boss retry the job; send.ts records an
    // attempt only once.
    const id = await deps.scheduler.boss.work<SendJob>(WEBHOOK_SEND_QUEUE, polling, async (jobs) => {
      for (const j of jobs) await sendDelivery(deps, j.data);
    });
    deps.scheduler.track(WEBHOOK_SEND_QUEUE, id);
  }
  // Endpoints that were behind before this worker started (none was following them meanwhile).
  void dispatcher.poll().catch((e) => deps.log.warn('webhook dispatch poll failed', { error: (e as Error).message }));
  return {
    dispatcher,
    stop: async () => {
      unobserve();
      await deps.scheduler.boss.offWork(WEBHOOK_SEND_QUEUE).catch(() => {});
      await dispatcher.stop();
    },
  };
}
