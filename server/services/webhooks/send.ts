// Sending one attempt of a delivery (a pg-boss job: services/webhooks/queue.ts). The attempt is a
// signed POST with a timeout; a 2xx answer delivers it, anything else (another status, a timeout, a
// refused connection) schedules the next attempt with exponential backoff, and the last failure of
// a series dead-letters it (DEAD), keeping the last status code and error. Every attempt is logged
// with its number, status code, duration, error sentence and the first kilobyte of the answer, in
// the transaction that moves the delivery on (store/webhooks/deliveries.ts) — which also sends the
// next attempt's job, so a retry is never lost and a delivery never moves twice for one attempt.
//
// A worker killed during an attempt leaves its job active: pg-boss hands it out again when it
// expires and the attempt is made again (same webhook-id; receivers deduplicate by it). Deliveries
// to one endpoint run concurrently, so they may arrive out of order; each carries its event's seq
// and workspace cursor for the receiver to reorder or fill gaps.
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import { egressDeniedIn, type EgressDenied, type FetchLike } from '../../runtime/egress/gate.ts';
import { deliveryForSend, recordAttempt, type DeliveryForSend } from '../../store/webhooks/deliveries.ts';
import { signingSecrets } from '../../store/webhooks/endpoints.ts';
import type { Deps } from '../deps.ts';
import { deliveryBody, EventGone } from './body.ts';
import { enqueueSends, type SendJob } from './queue.ts';
import { retryDelayMs, webhookSettings } from './settings.ts';
import { signedHeaders } from './signing.ts';

/** The most of a receiver's answer kept with an attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export type AttemptOutcome = {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  durationMs: number;
  /** No later attempt can do better (the event is gone, the endpoint was disabled): dead at once. */
  final?: boolean;
  /** The egress gate refused the endpoint's address (or a redirect): nothing was sent. */
  denied?: EgressDenied;
};

/** Up to `max` bytes of the answer, as text (a multi-byte character cut at the end reads as U+FFFD). */
async function excerpt(res: Response, max: number): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
  const bytes = Buffer.concat(chunks).subarray(0, max);
  // PostgreSQL text cannot hold NUL.
  return bytes.length ? new TextDecoder().decode(bytes).replaceAll('\u0000', '') : null;
}

function unreachable(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (e as Error).message;
  return `Could not reach the receiver (${String(why).slice(0, 200)})`;
}

/**
 * One signed POST, bounded by `timeoutMs` (connecting, sending and the answer's first kilobyte).
 * `send` is the egress gate's fetch for the workspace (deps.egress.fetchFor): a refused address is
 * a failed attempt whose error says why, and nothing is sent.
 */
export async function postWebhook(url: string, headers: Record<string, string>, body: string, timeoutMs: number, send: FetchLike = fetch): Promise<AttemptOutcome> {
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  const took = () => Math.round(performance.now() - started);
  try {
    // Redirects are not followed: the signature was made for this endpoint, and a 3xx is not a receipt.
    const res = await send(url, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'Atelier-Webhooks/1', ...headers }, body, redirect: 'manual', signal });
    const responseBody = await excerpt(res, RESPONSE_EXCERPT_BYTES).catch(() => null);
    const delivered = res.status >= 200 && res.status < 300;
    const error = delivered
      ? null
      : res.status >= 300 && res.status < 400
        ? `The receiver answered ${res.status} (a redirect; redirects are not followed)`
        : `The receiver answered ${res.status}`;
    return { delivered, statusCode: res.status, error, responseBody, durationMs: took() };
  } catch (e) {
    const denied = egressDeniedIn(e);
    if (denied) return { delivered: false, statusCode: null, error: denied.message, responseBody: null, durationMs: took(), denied };
    const error = signal.aborted ? `The receiver did not answer within ${timeoutMs} ms` : unreachable(e);
    return { delivered: false, statusCode: null, error, responseBody: null, durationMs: took() };
  }
}

/** The attempt itself: nothing to send (dead at once), or the signed POST. */
async function attempt(deps: Deps, d: DeliveryForSend, startedAt: Date, timeoutMs: number): Promise<AttemptOutcome> {
  const dead = (error: string): AttemptOutcome => ({ delivered: false, statusCode: null, error, responseBody: null, durationMs: 0, final: true });
  if (d.kind === 'EVENT' && !d.endpoint.enabled) return dead('The endpoint was disabled before this delivery went out');
  let body: string;
  try {
    body = await deliveryBody(deps, d);
  } catch (e) {
    if (e instanceof EventGone) return dead(e.message);
    throw e;
  }
  const secrets = await signingSecrets(deps.prisma, d.workspaceId, d.endpointId, startedAt);
  return postWebhook(d.endpoint.url, signedHeaders(secrets, d.messageId, startedAt, body), body, timeoutMs, deps.egress.fetchFor(d.workspaceId));
}

/** Runs one attempt of a delivery; a job that no longer matches the delivery (stale, repeated) does nothing. */
export async function sendDelivery(deps: Deps, job: SendJob): Promise<void> {
  const settings = webhookSettings(deps.config);
  const d = await deliveryForSend(deps.prisma, job.workspaceId, job.deliveryId);
  if (!d || d.status !== 'PENDING' || d.series !== job.series || d.attempts !== job.attempt - 1) return;
  const startedAt = new Date();
  const outcome = await attempt(deps, d, startedAt, settings.timeoutMs);
  const last = outcome.final || job.attempt >= settings.maxAttempts;
  const status = outcome.delivered ? 'DELIVERED' : last ? 'DEAD' : 'PENDING';
  const nextAttemptAt = status === 'PENDING' ? new Date(Date.now() + retryDelayMs(settings, job.attempt)) : null;
  await transactWithEvents(deps, async (tx, emit) => {
    const recorded = await recordAttempt(tx, {
      workspaceId: d.workspaceId,
      deliveryId: d.id,
      series: job.series,
      number: job.attempt,
      startedAt,
      durationMs: outcome.durationMs,
      statusCode: outcome.statusCode,
      error: outcome.error,
      responseBody: outcome.responseBody,
      status,
      nextAttemptAt,
    });
    if (recorded && nextAttemptAt) {
      await enqueueSends(tx, deps.scheduler, [{ job: { ...job, attempt: job.attempt + 1 }, startAfter: nextAttemptAt }]);
    }
    // A refused address is told on the task whose event was to go out, once per series (not per
    // retry), and never for the delivery of such an event itself (no chain of denials).
    if (recorded && outcome.denied && d.taskId && d.eventType !== 'EGRESS_DENIED' && job.attempt === 1) {
      const x = outcome.denied.denial;
      emit(d.taskId, { type: 'EGRESS_DENIED', actor: { kind: 'SYSTEM' }, payload: { host: x.host, port: x.port, rule: x.rule, reason: x.reason, webhookEndpointId: d.endpointId } });
    }
  });
  if (status === 'DEAD') deps.log.warn('webhook delivery dead-lettered', { deliveryId: d.id, endpointId: d.endpointId, attempts: job.attempt, error: outcome.error });
}
