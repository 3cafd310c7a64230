// The webhook settings a process runs with, and the retry schedule.
import { DEFAULT_WEBHOOK_SETTINGS, type Config, type WebhookSettings } from '../../config.ts';

export function webhookSettings(config: Pick<Config, 'webhooks'>): WebhookSettings {
  return { ...DEFAULT_WEBHOOK_SETTINGS, ...config.webhooks };
}

/**
 * The wait before the attempt after attempt `n` (1-based): exponential, base × 2^(n-1), capped, and
 * up to a fifth shorter at random so receivers that failed together are not retried in lockstep.
 */
export function retryDelayMs(s: Pick<WebhookSettings, 'retryBaseMs' | 'retryMaxMs'>, n: number, random: () => number = Math.random): number {
  const step = Math.min(s.retryMaxMs, s.retryBaseMs * 2 ** Math.min(n - 1, 30));
  return Math.round(step * (1 - random() / 5));
}
