// Placing and submitting an order. Submission is idempotent per (workspace, key) and persists the
// upstream job id at once; an unclear submission is marked UNKNOWN and reconciled by lookup, never
// resubmitted blindly. The order row and its hold commit together: a job row without its hold (or
// the reverse) cannot exist.
import { transactWithEvents, type Emit, type UowDeps } from '../channel/unit-of-work.ts';
import { crashPoint } from '../crash-points.ts';
import type { Tx } from '../db/client.ts';
import { insertOrder, orderExists, readJob, readOrderByKey } from '../store/generation-jobs.ts';
import { insertHold } from '../store/ledger-holds.ts';
import type { JobDeps } from './job-deps.ts';
import { recordJobStatus } from './record.ts';
import { ProviderUnavailable, SubmissionOutcomeUnknown, type GenerationRequest } from './types.ts';

/**
 * A check every paid order passes inside its transaction (the approvals gate, see
 * store/approvals/paid-action-gate.ts). `lock` runs first so that the "does this order exist"
 * read and the decision both happen under the gate's lock.
 */
export type OrderGate = {
  lock(tx: Tx): Promise<void>;
  decide(tx: Tx, emit: Emit, quoteCents: number): Promise<{ kind: 'proceed' } | { kind: string; [k: string]: unknown }>;
};

export type OrderResult<G = unknown> =
  | { kind: 'ordered'; job: Awaited<ReturnType<UowDeps['prisma']['generationJob']['findUniqueOrThrow']>> }
  | { kind: 'gated'; outcome: G };

/** Submits without a gate (internal callers, benchmarks, tests of the job lifecycle). */
export async function submitGeneration(deps: JobDeps, req: GenerationRequest & { workspaceId: string; taskId: string | null }) {
  const r = await orderGeneration(deps, req);
  if (r.kind !== 'ordered') throw new Error('unreachable: no gate');
  return r.job;
}

/**
 * Places an order (job row + hold, one transaction) unless one exists for this key, then submits it.
 * With a gate, the gate decides inside that transaction; anything but `proceed` places nothing.
 */
export async function orderGeneration<G extends { kind: string }>(
  deps: JobDeps,
  req: GenerationRequest & { workspaceId: string; taskId: string | null; workerId?: string; turnGeneration?: number },
  gate?: OrderGate,
): Promise<OrderResult<G>> {
  const { prisma, provider } = deps;
  const quote = await provider.quote(req);
  const { value: placed } = await transactWithEvents(deps, async (tx, emit) => {
    if (gate) {
      await gate.lock(tx);
      // Another worker (or an earlier attempt) already placed this order: no second decision.
      if (await orderExists(tx, req.workspaceId, req.idempotencyKey)) return { existing: true as const };
      const outcome = await gate.decide(tx, emit, quote);
      if (outcome.kind !== 'proceed') return { gated: outcome as unknown as G };
    }
    const id = await insertOrder(tx, {
      workspaceId: req.workspaceId,
      taskId: req.taskId,
      kind: req.kind,
      provider: provider.name,
      idempotencyKey: req.idempotencyKey,
      prompt: req.prompt,
      params: req.params,
      quoteCents: quote,
      workerId: req.workerId ?? null,
      turnGeneration: req.turnGeneration ?? null,
    });
    if (id && quote > 0) {
      await insertHold(tx, { workspaceId: req.workspaceId, taskId: req.taskId, jobId: id, amountCents: quote, reason: `quote for ${req.kind.toLowerCase()}` });
    }
    return id ? { id } : { existing: true as const };
  });
  if ('gated' in placed) return { kind: 'gated', outcome: placed.gated as G };
  if (!('existing' in placed)) crashPoint('order.committed');
  if ('existing' in placed) {
    const job = await readOrderByKey(prisma, req.workspaceId, req.idempotencyKey);
    // An order whose submission was never recorded (its worker died between the order's commit and
    // the provider's answer): a takeover — a later generation of the turn, so the placing one is
    // fenced out — submits it now by the same key, looked up first so a provider that already has
    // it is never asked twice. Anyone else leaves it to its placer (or to reconciliation).
    const takeover = req.turnGeneration !== undefined && job.turnGeneration !== null && req.turnGeneration > job.turnGeneration;
    if (job.status === 'SUBMITTING' && takeover) await submitPlaced(deps, job.id, req, { lookupFirst: true });
    return { kind: 'ordered', job: await readJob(prisma, job.id) };
  }
  await submitPlaced(deps, placed.id, req, { lookupFirst: false });
  return { kind: 'ordered', job: await readJob(prisma, placed.id) };
}

/**
 * Submits a placed order and records the answer. Safe to repeat: the request carries the order's
 * idempotency key, and the record only moves a job forward. `lookupFirst` is for recovery, where an
 * earlier attempt may have reached the provider.
 */
export async function submitPlaced(deps: JobDeps, id: string, req: GenerationRequest & { taskId: string | null }, opts: { lookupFirst: boolean; wake?: boolean }) {
  const { provider } = deps;
  let found: { upstreamJobId: string } | null = null;
  try {
    found = opts.lookupFirst && provider.lookup ? await provider.lookup(req.idempotencyKey) : null;
  } catch (e) {
    // The provider cannot say now: the order stays as it is, and reconciliation asks again.
    deps.log.warn('looking up an order failed; retried at the next reconciliation', { jobId: id, error: (e as Error).message });
    return;
  }
  try {
    const { upstreamJobId } = found ?? (await provider.submit(req));
    crashPoint('submit.answered');
    await recordJobStatus(deps, id, req.taskId, { status: 'QUEUED', upstreamJobId }, 'JOB_SUBMITTED');
    crashPoint('submit.recorded');
  } catch (e) {
    if (e instanceof SubmissionOutcomeUnknown) {
      await recordJobStatus(deps, id, req.taskId, { status: 'UNKNOWN', error: e.message }, 'JOB_SUBMISSION_UNKNOWN');
    } else if (e instanceof ProviderUnavailable) {
      // Nothing reached the provider: the order stays placed (SUBMITTING, money held) and
      // reconciliation submits it when the provider is back.
      deps.log.warn('the provider is unavailable; the order waits for reconciliation', { jobId: id, error: e.message });
    } else {
      await recordJobStatus(deps, id, req.taskId, { status: 'FAILED', error: (e as Error).message.slice(0, 500) }, 'JOB_FAILED', { wake: opts.wake });
    }
  }
}
