// Reconciliation, every watchdog tick, and the cancellation of jobs nobody wants any more. Both only
// ask the provider and feed its answers through the same forward-only paths as callbacks (record.ts,
// callbacks.ts), so they are safe to repeat and to run in several processes at once.
import { silentJobs, stuckSubmissions, unknownSubmissions, unwantedJobs } from '../store/generation-jobs.ts';
import { applyUpdate } from './callbacks.ts';
import type { JobDeps } from './job-deps.ts';
import { submitPlaced } from './order.ts';
import { recordJobStatus } from './record.ts';

/** An order the provider never received is failed after this long (its hold released). */
const SUBMIT_GIVE_UP_MS = 30 * 60_000;

/**
 * Reconciliation, every watchdog tick:
 *  - orders still SUBMITTING after `submittingMs` (their worker died before recording the answer)
 *    are submitted by their key — or cancelled when their task ended or their step was abandoned;
 *  - jobs silent for `silentMs` are polled;
 *  - UNKNOWN submissions are looked up by their idempotency key (attached when found, failed when
 *    the provider never got them);
 *  - running jobs nobody wants any more (task cancelled, step re-planned) are cancelled upstream.
 * Invariant it keeps: every job reaches a final state, and no money stays held without a live job.
 */
export async function reconcileJobs(
  deps: JobDeps,
  opts: { silentMs: number; submittingMs?: number },
): Promise<{ polled: number; resolvedUnknown: number; resubmitted: number; cancelled: number }> {
  const { prisma, provider } = deps;
  const stuck = await stuckSubmissions(prisma, provider.name, new Date(Date.now() - (opts.submittingMs ?? opts.silentMs)));
  const unwanted = new Set((await unwantedJobs(prisma, provider.name, { status: 'SUBMITTING' })).map((j) => j.id));
  let resubmitted = 0;
  for (const j of stuck) {
    if (unwanted.has(j.id)) continue; // cancelled below
    if (j.createdAt.getTime() < Date.now() - SUBMIT_GIVE_UP_MS) {
      // The provider has been unreachable for this order for too long: fail it (the hold is
      // released) so the task can go on or report it, instead of waiting forever.
      await recordJobStatus(deps, j.id, j.taskId, { status: 'FAILED', error: 'the provider could not be reached' }, 'JOB_FAILED', { wake: true });
      continue;
    }
    await submitPlaced(deps, j.id, { kind: j.kind, prompt: j.prompt, params: (j.params ?? {}) as Record<string, unknown>, idempotencyKey: j.idempotencyKey, taskId: j.taskId }, { lookupFirst: true, wake: true });
    resubmitted++;
  }
  const cancelled = await cancelUnwantedJobs(deps);
  const silent = await silentJobs(prisma, provider.name, new Date(Date.now() - opts.silentMs));
  for (const j of silent) await applyUpdate(deps, await provider.status(j.upstreamJobId!));
  const unknown = await unknownSubmissions(prisma, provider.name);
  let resolvedUnknown = 0;
  for (const j of unknown) {
    const found = provider.lookup ? await provider.lookup(j.idempotencyKey) : null;
    if (found) {
      await recordJobStatus(deps, j.id, j.taskId, { status: 'QUEUED', upstreamJobId: found.upstreamJobId }, 'JOB_SUBMITTED');
      await applyUpdate(deps, await provider.status(found.upstreamJobId));
    } else if (provider.lookup) {
      await recordJobStatus(deps, j.id, j.taskId, { status: 'FAILED', error: 'the submission never reached the provider' }, 'JOB_FAILED', { wake: true });
    }
    resolvedUnknown++;
  }
  return { polled: silent.length, resolvedUnknown, resubmitted, cancelled };
}

/**
 * Cancels upstream every live job nobody wants any more (see `unwantedJobs`), and settles it by the
 * provider's answer: released when nothing was made, charged when the result already exists (it is
 * kept as an object and recorded; it never revives the task). An order the provider never got is
 * cancelled here and its hold released. Safe to repeat: `applyUpdate` only moves a job forward.
 */
export async function cancelUnwantedJobs(deps: JobDeps, where: { taskId?: string } = {}): Promise<number> {
  const { provider } = deps;
  let cancelled = 0;
  for (const u of await unwantedJobs(deps.prisma, provider.name, where)) {
    const j = { id: u.id, taskId: u.task_id, status: u.status, upstreamJobId: u.upstream_job_id, idempotencyKey: u.idempotency_key };
    try {
      const upstream = j.upstreamJobId ?? (provider.lookup ? (await provider.lookup(j.idempotencyKey))?.upstreamJobId : undefined);
      if (!upstream) {
        // Never reached the provider (or it cannot tell): nothing was made, nothing is owed.
        if (j.status === 'SUBMITTING' || (j.status === 'UNKNOWN' && provider.lookup)) {
          await recordJobStatus(deps, j.id, j.taskId, { status: 'CANCELLED', error: 'cancelled before the provider received it' }, 'JOB_CANCELLED', { wake: true });
          cancelled++;
        }
        continue;
      }
      if (!provider.cancel) continue; // the provider cannot stop it: it completes and is recorded
      await provider.cancel(upstream);
      // The provider's answer decides the money: CANCELLED releases, SUCCEEDED charges.
      const u = await provider.status(upstream);
      await applyUpdate(deps, { ...u, upstreamJobId: upstream, idempotencyKey: j.upstreamJobId ? undefined : j.idempotencyKey });
      cancelled++;
    } catch (e) {
      deps.log.warn('cancelling a job upstream failed; retried at the next reconciliation', { jobId: j.id, error: (e as Error).message });
    }
  }
  return cancelled;
}
