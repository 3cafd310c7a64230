// The job lifecycle in the database. Submission is idempotent per (workspace, key) and persists the
// upstream job id at once; an unclear submission is marked UNKNOWN and reconciled by lookup, never
// resubmitted blindly. Callbacks and polls go through `applyUpdate`, which locks the job row and
// only moves its status forward: duplicates and stale updates change nothing and emit nothing.
// Progress reaches subscribers as task events, without any model call.
import { transactWithEvents, type Emit, type UowDeps } from '../channel/unit-of-work.ts';
import type { Tx } from '../db/client.ts';
import type { Prisma } from '../db/generated/client.ts';
import type { Logger } from '../log.ts';
import { createAssetForJob } from '../store/objects/create-asset.ts';
import { advance, type JobStatus } from './status.ts';
import { crashPoint } from '../crash-points.ts';
import { ProviderUnavailable, SubmissionOutcomeUnknown, type GenerationProvider, type GenerationRequest, type ProviderUpdate } from './types.ts';

/** What happens when a job reaches a final state (the runtime wakes or completes the task). */
export type OnJobEnd = (
  tx: Tx,
  emit: Emit,
  job: { id: string; taskId: string; kind: string; status: JobStatus; params: unknown; files: unknown; error: string | null },
) => Promise<void>;

export type JobDeps = UowDeps & { provider: GenerationProvider; log: Logger; onJobEnd?: OnJobEnd };

type JobRow = {
  id: string;
  task_id: string | null;
  status: JobStatus;
  progress: number;
  upstream_job_id: string | null;
};

/**
 * A check every paid order passes inside its transaction (the approvals gate, see
 * services/approvals/paid-action-gate.ts). `lock` runs first so that the "does this order exist"
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
  const byKey = { workspaceId_idempotencyKey: { workspaceId: req.workspaceId, idempotencyKey: req.idempotencyKey } };
  // The order and its hold commit together: a job row without its hold (or the reverse) cannot exist.
  const { value: placed } = await transactWithEvents(deps, async (tx, emit) => {
    if (gate) {
      await gate.lock(tx);
      // Another worker (or an earlier attempt) already placed this order: no second decision.
      if (await tx.generationJob.findUnique({ where: byKey, select: { id: true } })) return { existing: true as const };
      const outcome = await gate.decide(tx, emit, quote);
      if (outcome.kind !== 'proceed') return { gated: outcome as unknown as G };
    }
    const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
      `INSERT INTO generation_jobs (id, workspace_id, task_id, kind, provider, idempotency_key, prompt, params, status, quote_cents, worker_id, turn_generation, created_at, updated_at, last_seen_at)
       VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3::"GenerationKind", $4, $5, $6, $7::jsonb, 'SUBMITTING', $8, $9, $10, now(), now(), now())
       ON CONFLICT (workspace_id, idempotency_key) DO NOTHING RETURNING id`,
      req.workspaceId,
      req.taskId,
      req.kind,
      provider.name,
      req.idempotencyKey,
      req.prompt,
      JSON.stringify(req.params ?? {}),
      quote,
      req.workerId ?? null,
      req.turnGeneration ?? null,
    );
    if (rows[0] && quote > 0) {
      await tx.ledgerEntry.create({
        data: { workspaceId: req.workspaceId, taskId: req.taskId, jobId: rows[0].id, kind: 'HOLD', amountCents: quote, reason: `quote for ${req.kind.toLowerCase()}` },
      });
    }
    return rows[0] ? { id: rows[0].id } : { existing: true as const };
  });
  if ('gated' in placed) return { kind: 'gated', outcome: placed.gated as G };
  if (!('existing' in placed)) crashPoint('order.committed');
  if ('existing' in placed) {
    const job = await prisma.generationJob.findUniqueOrThrow({ where: byKey });
    // An order whose submission was never recorded (its worker died between the order's commit and
    // the provider's answer): a takeover — a later generation of the turn, so the placing one is
    // fenced out — submits it now by the same key, looked up first so a provider that already has
    // it is never asked twice. Anyone else leaves it to its placer (or to reconciliation).
    const takeover = req.turnGeneration !== undefined && job.turnGeneration !== null && req.turnGeneration > job.turnGeneration;
    if (job.status === 'SUBMITTING' && takeover) await submitPlaced(deps, job.id, req, { lookupFirst: true });
    return { kind: 'ordered', job: await prisma.generationJob.findUniqueOrThrow({ where: { id: job.id } }) };
  }
  await submitPlaced(deps, placed.id, req, { lookupFirst: false });
  return { kind: 'ordered', job: await prisma.generationJob.findUniqueOrThrow({ where: { id: placed.id } }) };
}

/**
 * Submits a placed order and records the answer. Safe to repeat: the request carries the order's
 * idempotency key, and `record` only moves a job forward. `lookupFirst` is for recovery, where an
 * earlier attempt may have reached the provider.
 */
async function submitPlaced(deps: JobDeps, id: string, req: GenerationRequest & { taskId: string | null }, opts: { lookupFirst: boolean; wake?: boolean }) {
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
    await record(deps, id, req.taskId, { status: 'QUEUED', upstreamJobId }, 'JOB_SUBMITTED');
    crashPoint('submit.recorded');
  } catch (e) {
    if (e instanceof SubmissionOutcomeUnknown) {
      await record(deps, id, req.taskId, { status: 'UNKNOWN', error: e.message }, 'JOB_SUBMISSION_UNKNOWN');
    } else if (e instanceof ProviderUnavailable) {
      // Nothing reached the provider: the order stays placed (SUBMITTING, money held) and
      // reconciliation submits it when the provider is back.
      deps.log.warn('the provider is unavailable; the order waits for reconciliation', { jobId: id, error: e.message });
    } else {
      await record(deps, id, req.taskId, { status: 'FAILED', error: (e as Error).message.slice(0, 500) }, 'JOB_FAILED', { wake: opts.wake });
    }
  }
}

async function record(
  deps: JobDeps,
  jobId: string,
  taskId: string | null,
  set: { status: JobStatus; upstreamJobId?: string; error?: string },
  type: string,
  /**
   * Outside the worker's own call (reconciliation), a job that ends here must wake its task like a
   * callback would; inside the call, the tool reads the status itself.
   */
  opts: { wake?: boolean } = {},
) {
  await transactWithEvents(deps, async (tx, emit) => {
    const rows = await tx.$queryRawUnsafe<JobRow[]>('SELECT id, task_id, status, progress, upstream_job_id FROM generation_jobs WHERE id = $1::uuid FOR UPDATE', jobId);
    const job = rows[0]!;
    // A callback may have moved the job on already (it can beat submit()'s answer): forward only,
    // but always keep the upstream id.
    const next = advance({ status: job.status, progress: Number(job.progress) }, { status: set.status });
    await tx.generationJob.update({
      where: { id: jobId },
      data: {
        ...(next ? { status: set.status, error: set.error ?? null } : {}),
        ...(set.upstreamJobId && !job.upstream_job_id ? { upstreamJobId: set.upstreamJobId } : {}),
        lastSeenAt: new Date(),
      },
    });
    if (!next) return;
    const terminal = set.status === 'FAILED' || set.status === 'CANCELLED';
    // Lock order as in applyUpdate: job → task.
    if (terminal && opts.wake && taskId) await tx.$queryRawUnsafe('SELECT 1 FROM tasks WHERE id = $1::uuid FOR UPDATE', taskId);
    if (terminal) await settle(tx, jobId, set.status);
    if (terminal && opts.wake && taskId && deps.onJobEnd) {
      const full = await tx.generationJob.findUniqueOrThrow({ where: { id: jobId } });
      await deps.onJobEnd(tx, emit, { id: jobId, taskId, kind: full.kind, status: set.status, params: full.params, files: null, error: set.error ?? null });
    }
    if (taskId) emit(taskId, { type, actor: { kind: 'SYSTEM' }, payload: { jobId, status: set.status, error: set.error ?? null } });
  });
}

const EVENT_FOR: Partial<Record<JobStatus, string>> = { SUCCEEDED: 'JOB_SUCCEEDED', FAILED: 'JOB_FAILED', CANCELLED: 'JOB_CANCELLED' };

/** Applies a callback or poll result. Returns true when it changed the job. */
export async function applyUpdate(deps: JobDeps, u: ProviderUpdate): Promise<boolean> {
  crashPoint('callback.received');
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    const rows = await tx.$queryRawUnsafe<JobRow[]>(
      `SELECT id, task_id, status, progress, upstream_job_id FROM generation_jobs
        WHERE provider = $1 AND (upstream_job_id = $2 OR ($3::text IS NOT NULL AND upstream_job_id IS NULL AND idempotency_key = $3))
        ORDER BY upstream_job_id NULLS LAST LIMIT 1 FOR UPDATE`,
      deps.provider.name,
      u.upstreamJobId,
      u.idempotencyKey ?? null,
    );
    const job = rows[0];
    if (!job) return false;
    if (!job.upstream_job_id) {
      // The callback beat submit()'s answer: attach the upstream id now (and say it was submitted,
      // so the stream reads in order; record() then finds nothing new to say).
      await tx.$executeRawUnsafe('UPDATE generation_jobs SET upstream_job_id = $2 WHERE id = $1::uuid', job.id, u.upstreamJobId);
      if (job.task_id) emit(job.task_id, { type: 'JOB_SUBMITTED', actor: { kind: 'SYSTEM' }, payload: { jobId: job.id, status: job.status, error: null } });
    }
    const next = advance({ status: job.status, progress: Number(job.progress) }, { status: u.status, progress: u.progress });
    if (!next) {
      await tx.$executeRawUnsafe('UPDATE generation_jobs SET callbacks = callbacks + 1, last_seen_at = now() WHERE id = $1::uuid', job.id);
      return false;
    }
    const terminal = next.status === 'SUCCEEDED' || next.status === 'FAILED' || next.status === 'CANCELLED';
    // Lock order: job → task → object feed → workspace events. The asset insert below takes a key
    // lock on the task (foreign key) and then the workspace's object feed head, and waking locks the
    // task FOR UPDATE: taking the task lock first keeps two completions of one task from deadlocking.
    if (terminal && job.task_id) await tx.$queryRawUnsafe('SELECT 1 FROM tasks WHERE id = $1::uuid FOR UPDATE', job.task_id);
    if (terminal) await settle(tx, job.id, next.status);
    // The result becomes a workspace object (exactly once per job: see create-asset.ts).
    if (next.status === 'SUCCEEDED') await createAssetForJob(tx, emit, job.id, u.files);
    await tx.generationJob.update({
      where: { id: job.id },
      data: {
        status: next.status,
        progress: next.progress,
        callbacks: { increment: 1 },
        lastSeenAt: new Date(),
        ...(terminal ? { completedAt: new Date() } : {}),
        ...(u.files ? { result: { files: u.files } as unknown as Prisma.InputJsonValue } : {}),
        ...(u.error ? { error: u.error } : {}),
      },
    });
    if (job.task_id && terminal && deps.onJobEnd) {
      const full = await tx.generationJob.findUniqueOrThrow({ where: { id: job.id } });
      await deps.onJobEnd(tx, emit, {
        id: job.id,
        taskId: job.task_id,
        kind: full.kind,
        status: next.status,
        params: full.params,
        files: u.files ?? null,
        error: u.error ?? null,
      });
    }
    if (job.task_id) {
      emit(job.task_id, {
        type: EVENT_FOR[next.status] ?? 'JOB_PROGRESS',
        actor: { kind: 'SYSTEM' },
        payload: { jobId: job.id, status: next.status, progress: next.progress, ...(u.files ? { files: u.files.map((f) => ({ mime: f.mime, bytes: f.bytes })) } : {}), ...(u.error ? { error: u.error } : {}) },
      });
    }
    return true;
  });
  if (value) crashPoint('callback.applied');
  return value;
}

/** Subscribes to the provider's callbacks (errors are logged; polling covers anything lost). */
export function listenToProvider(deps: JobDeps): () => void {
  return deps.provider.onUpdate((u) => {
    applyUpdate(deps, u).catch((e) => deps.log.warn('job callback failed', { upstreamJobId: u.upstreamJobId, error: (e as Error).message }));
  });
}

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
  const stuck = await prisma.generationJob.findMany({
    where: { provider: provider.name, status: 'SUBMITTING', createdAt: { lt: new Date(Date.now() - (opts.submittingMs ?? opts.silentMs)) } },
    take: 200,
  });
  const unwanted = new Set((await unwantedJobs(deps, { status: 'SUBMITTING' })).map((j) => j.id));
  let resubmitted = 0;
  for (const j of stuck) {
    if (unwanted.has(j.id)) continue; // cancelled below
    if (j.createdAt.getTime() < Date.now() - SUBMIT_GIVE_UP_MS) {
      // The provider has been unreachable for this order for too long: fail it (the hold is
      // released) so the task can go on or report it, instead of waiting forever.
      await record(deps, j.id, j.taskId, { status: 'FAILED', error: 'the provider could not be reached' }, 'JOB_FAILED', { wake: true });
      continue;
    }
    await submitPlaced(deps, j.id, { kind: j.kind, prompt: j.prompt, params: (j.params ?? {}) as Record<string, unknown>, idempotencyKey: j.idempotencyKey, taskId: j.taskId }, { lookupFirst: true, wake: true });
    resubmitted++;
  }
  const cancelled = await cancelUnwantedJobs(deps);
  const silent = await prisma.generationJob.findMany({
    where: { provider: provider.name, status: { in: ['QUEUED', 'RUNNING'] }, lastSeenAt: { lt: new Date(Date.now() - opts.silentMs) } },
    take: 200,
  });
  for (const j of silent) await applyUpdate(deps, await provider.status(j.upstreamJobId!));
  const unknown = await prisma.generationJob.findMany({ where: { provider: provider.name, status: 'UNKNOWN' }, take: 200 });
  let resolvedUnknown = 0;
  for (const j of unknown) {
    const found = provider.lookup ? await provider.lookup(j.idempotencyKey) : null;
    if (found) {
      await record(deps, j.id, j.taskId, { status: 'QUEUED', upstreamJobId: found.upstreamJobId }, 'JOB_SUBMITTED');
      await applyUpdate(deps, await provider.status(found.upstreamJobId));
    } else if (provider.lookup) {
      await record(deps, j.id, j.taskId, { status: 'FAILED', error: 'the submission never reached the provider' }, 'JOB_FAILED', { wake: true });
    }
    resolvedUnknown++;
  }
  return { polled: silent.length, resolvedUnknown, resubmitted, cancelled };
}

/** An order the provider never received is failed after this long (its hold released). */
const SUBMIT_GIVE_UP_MS = 30 * 60_000;

type UnwantedJob = { id: string; task_id: string; status: string; upstream_job_id: string | null; idempotency_key: string };

/**
 * Live jobs nobody wants any more, in one statement: their task was cancelled (or failed, or ran over
 * its budget), or the checklist step they were ordered for was re-opened in a later round or removed
 * (a change of direction). Invariant it serves: no money stays held for work nobody will use.
 */
async function unwantedJobs(deps: Pick<JobDeps, 'prisma' | 'provider'>, where: { taskId?: string; status?: string } = {}): Promise<UnwantedJob[]> {
  return deps.prisma.$queryRawUnsafe<UnwantedJob[]>(
    `SELECT j.id, j.task_id, j.status, j.upstream_job_id, j.idempotency_key
       FROM generation_jobs j
       JOIN tasks k ON k.id = j.task_id
       LEFT JOIN task_checklists c ON c.task_id = k.id AND c.version = k.checklist_version
      WHERE j.provider = $1
        AND j.status IN ('SUBMITTING', 'QUEUED', 'RUNNING', 'UNKNOWN')
        AND ($2::uuid IS NULL OR j.task_id = $2::uuid)
        AND ($3::text IS NULL OR j.status::text = $3)
        AND (k.status IN ('CANCELLED', 'FAILED', 'BUDGET_EXCEEDED')
             OR (j.params ? 'checklistItemId' AND c.items IS NOT NULL AND NOT EXISTS (
                   SELECT 1 FROM jsonb_array_elements(c.items) it
                    WHERE it->>'id' = j.params->>'checklistItemId'
                      AND COALESCE((it->>'round')::int, 0) <= COALESCE((j.params->>'checklistRound')::int, 0))))
      LIMIT 200`,
    deps.provider.name,
    where.taskId ?? null,
    where.status ?? null,
  );
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
  for (const u of await unwantedJobs(deps, where)) {
    const j = { id: u.id, taskId: u.task_id, status: u.status, upstreamJobId: u.upstream_job_id, idempotencyKey: u.idempotency_key };
    try {
      const upstream = j.upstreamJobId ?? (provider.lookup ? (await provider.lookup(j.idempotencyKey))?.upstreamJobId : undefined);
      if (!upstream) {
        // Never reached the provider (or it cannot tell): nothing was made, nothing is owed.
        if (j.status === 'SUBMITTING' || (j.status === 'UNKNOWN' && provider.lookup)) {
          await record(deps, j.id, j.taskId, { status: 'CANCELLED', error: 'cancelled before the provider received it' }, 'JOB_CANCELLED', { wake: true });
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

/**
 * Settles a job's hold when it ends: success charges it, anything else releases it (refund by rule).
 * Idempotent: (job, kind) is unique, and a job is settled once whatever the callbacks do.
 */
async function settle(tx: Tx, jobId: string, status: JobStatus): Promise<void> {
  const hold = await tx.ledgerEntry.findUnique({ where: { jobId_kind: { jobId, kind: 'HOLD' } } });
  if (!hold) return;
  const kind = status === 'SUCCEEDED' ? 'CHARGE' : 'RELEASE';
  await tx.$executeRawUnsafe(
    `INSERT INTO ledger_entries (id, workspace_id, task_id, job_id, kind, amount_cents, reason, created_at)
     SELECT gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, $4::"LedgerKind", $5, $6, now()
      WHERE NOT EXISTS (SELECT 1 FROM ledger_entries WHERE job_id = $3::uuid AND kind IN ('CHARGE', 'RELEASE'))
     ON CONFLICT (job_id, kind) DO NOTHING`,
    hold.workspaceId,
    hold.taskId,
    jobId,
    kind,
    hold.amountCents,
    status === 'SUCCEEDED' ? 'generation delivered' : `refund: job ${status.toLowerCase()}`,
  );
}

/** Money per task (or workspace): held, charged, released, and what is still on hold. */
export async function ledgerSummary(prisma: UowDeps['prisma'], where: { taskId?: string; workspaceId?: string }) {
  const rows = await prisma.ledgerEntry.groupBy({ by: ['kind'], where, _sum: { amountCents: true } });
  const sum = (k: string) => rows.find((r) => r.kind === k)?._sum.amountCents ?? 0;
  const held = sum('HOLD');
  const charged = sum('CHARGE');
  const released = sum('RELEASE');
  return { heldCents: held, chargedCents: charged, releasedCents: released, outstandingCents: held - charged - released };
}
