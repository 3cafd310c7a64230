// Recording what the provider said about a job outside a callback (a submission's answer, a lookup,
// a give-up), and settling a job's hold when it ends. Like callbacks, a record locks the job row and
// only moves its status forward, so it is safe to repeat and safe to race a callback.
import type { EventType } from '../domain/event-catalog.ts';
import { transactWithEvents } from '../channel/unit-of-work.ts';
import type { Tx } from '../db/client.ts';
import { lockJob, readJob, recordSubmissionAnswer } from '../store/generation-jobs.ts';
import { findHold, insertSettlement } from '../store/ledger-holds.ts';
import { lockTask } from '../store/tasks/apply-transition.ts';
import type { JobDeps } from './job-deps.ts';
import { advance, type JobStatus } from './status.ts';

export async function recordJobStatus(
  deps: JobDeps,
  jobId: string,
  taskId: string | null,
  set: { status: JobStatus; upstreamJobId?: string; error?: string },
  type: EventType,
  /**
   * Outside the worker's own call (reconciliation), a job that ends here must wake its task like a
   * callback would; inside the call, the tool reads the status itself.
   */
  opts: { wake?: boolean } = {},
): Promise<void> {
  await transactWithEvents(deps, async (tx, emit) => {
    const job = (await lockJob(tx, jobId))!;
    // A callback may have moved the job on already (it can beat submit()'s answer): forward only,
    // but always keep the upstream id.
    const next = advance({ status: job.status, progress: Number(job.progress) }, { status: set.status });
    await recordSubmissionAnswer(tx, jobId, {
      ...(next ? { status: set.status, error: set.error ?? null } : {}),
      ...(set.upstreamJobId && !job.upstream_job_id ? { upstreamJobId: set.upstreamJobId } : {}),
    });
    if (!next) return;
    const terminal = set.status === 'FAILED' || set.status === 'CANCELLED';
    // Lock order as in applyUpdate: job → task.
    if (terminal && opts.wake && taskId) await lockTask(tx, taskId);
    if (terminal) await settleHold(tx, jobId, set.status);
    if (terminal && opts.wake && taskId && deps.onJobEnd) {
      const full = await readJob(tx, jobId);
      await deps.onJobEnd(tx, emit, { id: jobId, taskId, kind: full.kind, status: set.status, params: full.params, files: null, error: set.error ?? null });
    }
    if (taskId) emit(taskId, { type, actor: { kind: 'SYSTEM' }, payload: { jobId, status: set.status, error: set.error ?? null } });
  });
}

/**
 * Settles a job's hold when it ends: success charges it, anything else releases it (refund by rule).
 * Idempotent: (job, kind) is unique, and a job is settled once whatever the callbacks do.
 */
export async function settleHold(tx: Tx, jobId: string, status: JobStatus): Promise<void> {
  const hold = await findHold(tx, jobId);
  if (!hold) return;
  await insertSettlement(tx, {
    workspaceId: hold.workspaceId,
    taskId: hold.taskId,
    jobId,
    kind: status === 'SUCCEEDED' ? 'CHARGE' : 'RELEASE',
    amountCents: hold.amountCents,
    reason: status === 'SUCCEEDED' ? 'generation delivered' : `refund: job ${status.toLowerCase()}`,
  });
}
