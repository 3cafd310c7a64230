// Callbacks and polls: `applyUpdate` locks the job row and only moves its status forward, so
// duplicates and stale updates change nothing and emit nothing. A final status settles the hold,
// turns a success into a workspace object and lets the runtime wake or complete the task — all in
// the transaction that records it. Progress reaches subscribers as task events, without any model call.
import type { EventType } from '../domain/event-catalog.ts';
import { transactWithEvents } from '../channel/unit-of-work.ts';
import { crashPoint } from '../crash-points.ts';
import { applyJobProgress, attachUpstreamId, countIdleCallback, lockJobForUpdate, readJob } from '../store/generation-jobs.ts';
import { createAssetForJob } from '../store/objects/create-asset.ts';
import { lockTask } from '../store/tasks/apply-transition.ts';
import type { JobDeps } from './job-deps.ts';
import { settleHold } from './record.ts';
import { advance, type JobStatus } from './status.ts';
import type { ProviderUpdate } from './types.ts';

const EVENT_FOR: Partial<Record<JobStatus, EventType>> = { SUCCEEDED: 'JOB_SUCCEEDED', FAILED: 'JOB_FAILED', CANCELLED: 'JOB_CANCELLED' };

/** Applies a callback or poll result. Returns true when it changed the job. */
export async function applyUpdate(deps: JobDeps, u: ProviderUpdate): Promise<boolean> {
  crashPoint('callback.received');
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    const job = await lockJobForUpdate(tx, deps.provider.name, u.upstreamJobId, u.idempotencyKey ?? null);
    if (!job) return false;
    if (!job.upstream_job_id) {
      // The callback beat submit()'s answer: attach the upstream id now (and say it was submitted,
      // so the stream reads in order; the submission's record then finds nothing new to say).
      await attachUpstreamId(tx, job.id, u.upstreamJobId);
      if (job.task_id) emit(job.task_id, { type: 'JOB_SUBMITTED', actor: { kind: 'SYSTEM' }, payload: { jobId: job.id, status: job.status, error: null } });
    }
    const next = advance({ status: job.status, progress: Number(job.progress) }, { status: u.status, progress: u.progress });
    if (!next) {
      await countIdleCallback(tx, job.id);
      return false;
    }
    const terminal = next.status === 'SUCCEEDED' || next.status === 'FAILED' || next.status === 'CANCELLED';
    // Lock order: job → task → object feed → workspace events. The asset insert below takes a key
    // lock on the task (foreign key) and then the workspace's object feed head, and waking locks the
    // task FOR UPDATE: taking the task lock first keeps two completions of one task from deadlocking.
    if (terminal && job.task_id) await lockTask(tx, job.task_id);
    if (terminal) await settleHold(tx, job.id, next.status);
    // The result becomes a workspace object (exactly once per job: see create-asset.ts).
    if (next.status === 'SUCCEEDED') await createAssetForJob(tx, emit, job.id, u.files);
    await applyJobProgress(tx, job.id, { ...next, terminal }, u);
    if (job.task_id && terminal && deps.onJobEnd) {
      const full = await readJob(tx, job.id);
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
