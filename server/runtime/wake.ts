// Waking a task when external work ends. The runtime — not the event — decides: a lone generation
// the model marked `finishWhenDone` completes the task with no further inference; otherwise the
// result goes to the task's inbox and, once no other job is pending, the task is requeued. A task
// that was cancelled or ended meanwhile is never revived (the job and its result are still kept).
import type { OnJobEnd } from '../generation/jobs.ts';
import { isTerminal } from '../domain/task-status.ts';
import { assetIdForJob } from '../services/objects/create-asset.ts';
import { applyTransition, lockTask } from '../services/tasks/apply-transition.ts';
import type { Scheduler } from './scheduler.ts';
import { ensureTurn } from './turns.ts';

type File = { path: string; mime: string };

export function wakeOnJobEnd(scheduler: Scheduler): OnJobEnd {
  return async (tx, emit, job) => {
    const task = await lockTask(tx, job.taskId);
    if (!task || isTerminal(task.status)) return;
    const files = (job.files as File[] | null) ?? [];
    const text =
      job.status === 'SUCCEEDED'
        ? `Generation (${job.kind.toLowerCase()}) finished: ${files.map((f) => `${f.mime} ${f.path.split('/').pop()}`).join(', ') || 'no files'}` +
          // The result is a workspace object (created in this transaction): give the agent its id.
          (files.length ? ` (workspace object ${assetIdForJob(job.id)})` : '')
        : `Generation (${job.kind.toLowerCase()}) ${job.status.toLowerCase()}${job.error ? `: ${job.error}` : ''}`;
    await tx.inboxItem.create({
      data: { taskId: job.taskId, workspaceId: task.workspaceId, kind: 'SIGNAL', signal: 'JOB_RESULT', text, idempotencyKey: `job:${job.id}` },
    });
    const pending = await tx.generationJob.count({
      where: { taskId: job.taskId, id: { not: job.id }, status: { in: ['SUBMITTING', 'QUEUED', 'RUNNING', 'UNKNOWN'] } },
    });
    if (pending > 0 || task.status !== 'WAITING') return; // a running turn reads it; a paused task later
    const finish = (job.params as { finishWhenDone?: boolean } | null)?.finishWhenDone === true && job.status === 'SUCCEEDED';
    if (finish) {
      await tx.task.update({ where: { id: job.taskId }, data: { summary: text } });
      emit(job.taskId, { type: 'TASK_DELIVERED', actor: { kind: 'SYSTEM' }, payload: { jobId: job.id, summary: text } });
      await applyTransition(tx, emit, { taskId: job.taskId, from: task.status, transition: 'complete', actor: { kind: 'SYSTEM' }, reason: null });
      return;
    }
    await applyTransition(tx, emit, { taskId: job.taskId, from: task.status, transition: 'requeue', actor: { kind: 'SYSTEM' }, reason: 'generation finished' });
    await ensureTurn(tx, scheduler, { id: job.taskId, workspaceId: task.workspaceId });
  };
}
