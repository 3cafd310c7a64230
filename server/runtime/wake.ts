// Waking a task when external work ends. The runtime — not the event — decides:
//   - a result for a checklist step is linked to it (the step is DONE once it has all its results);
//   - a checklist now finished completes the task with a delivery that cites the results, with no
//     further inference; open steps wake the task (auto-wake after an approved generation);
//   - without a checklist, a lone generation the model marked `finishWhenDone` completes the task;
//     otherwise the result goes to the inbox and, once no other job is pending, the task is requeued.
// A task that was cancelled or ended meanwhile is never revived (the job and its result are kept).
import type { OnJobEnd } from '../generation/jobs.ts';
import { isTerminal } from '../domain/task-status.ts';
import { readChecklist, writeChecklist } from '../store/checklist/write-checklist.ts';
import { assetIdForJob } from '../store/objects/create-asset.ts';
import { applyTransition, lockTask } from '../store/tasks/apply-transition.ts';
import { allFinished, linkArtifact } from '../domain/checklist.ts';
import { deliverySummary } from '../domain/continuation.ts';
import { countUnreadFromUser, insertJobResult } from '../store/journal/inbox.ts';
import { readTaskBrief, writeTaskSummary } from '../store/journal/tasks.ts';
import { countOutstanding, countLiveTurns, countPendingApprovals } from '../store/journal/waits.ts';
import type { Scheduler } from '../store/scheduler.ts';
import { ensureTurn } from '../store/turns.ts';

type File = { path: string; mime: string };

/**
 * A result as a step links it: the workspace object a successful job with files became (created in
 * the same transaction; its id derives from the job's), else the job.
 */
function resultRef(job: { id: string; status: string; files: unknown }): string {
  return job.status === 'SUCCEEDED' && ((job.files as File[] | null) ?? []).length ? `object:${assetIdForJob(job.id)}` : `job:${job.id}`;
}

export function wakeOnJobEnd(scheduler: Scheduler): OnJobEnd {
  return async (tx, emit, job) => {
    const task = await lockTask(tx, job.taskId);
    if (!task || isTerminal(task.status)) return;
    const files = (job.files as File[] | null) ?? [];
    const text =
      job.status === 'SUCCEEDED'
        ? `Generation (${job.kind.toLowerCase()}) finished: ${files.map((f) => `${f.mime} ${f.path.split('/').pop()}`).join(', ') || 'no files'} [${resultRef(job)}]`
        : `Generation (${job.kind.toLowerCase()}) ${job.status.toLowerCase()}${job.error ? `: ${job.error}` : ''} [job:${job.id}]`;
    const params = (job.params as { finishWhenDone?: boolean; checklistItemId?: string; checklistRound?: number } | null) ?? {};
    let checklist = await readChecklist(tx, job.taskId);
    if (checklist && params.checklistItemId) {
      const itemId = params.checklistItemId;
      const round = params.checklistRound ?? 0;
      const written = await writeChecklist(tx, emit, { taskId: job.taskId, actor: { kind: 'SYSTEM' }, reason: `result for ${itemId}` }, (items) =>
        job.status === 'SUCCEEDED'
          ? linkArtifact(items, itemId, resultRef(job), `generated (job ${job.id})`, round)
          : items, // failed: the derived order count drops, so the step may order it again
      );
      checklist = written.checklist;
    }
    await insertJobResult(tx, { taskId: job.taskId, workspaceId: task.workspaceId, jobId: job.id, text });
    const pending = await countOutstanding(tx, job.taskId, { except: job.id });
    if (pending > 0 || task.status !== 'WAITING') return; // a running turn reads it; a paused task later
    const asking = await countPendingApprovals(tx, job.taskId);
    if (asking > 0) return; // the person's decision wakes the task
    // A turn already queued or running (started by a signal while the jobs ran; it may already have
    // read a change of direction and be re-opening steps) reads this result from the inbox and
    // decides at its own end. Completing here would deliver work the person just asked to change.
    if ((await countLiveTurns(tx, job.taskId)) > 0) return;
    // An instruction from the user that no step has read yet (e.g. a change of direction sent while
    // the jobs ran) must be read before anything is delivered.
    const unreadFromUser = await countUnreadFromUser(tx, job.taskId);
    const delivered = unreadFromUser > 0 ? null : checklist?.items.length
      ? allFinished(checklist.items)
        ? deliverySummary(checklist.items, '', (await readTaskBrief(tx, job.taskId)).language)
        : null
      : params.finishWhenDone === true && job.status === 'SUCCEEDED'
        ? text
        : null;
    if (delivered !== null) {
      await writeTaskSummary(tx, job.taskId, delivered);
      emit(job.taskId, { type: 'CONTINUATION_DECIDED', actor: { kind: 'SYSTEM' }, payload: { decision: 'complete', reason: checklist ? 'every checklist step is done' : 'the lone result was all that was asked', jobId: job.id } });
      emit(job.taskId, { type: 'TASK_DELIVERED', actor: { kind: 'SYSTEM' }, payload: { jobId: job.id, summary: delivered } });
      await applyTransition(tx, emit, { taskId: job.taskId, from: task.status, transition: 'complete', actor: { kind: 'SYSTEM' }, reason: null });
      return;
    }
    if (checklist?.items.length) {
      emit(job.taskId, { type: 'CONTINUATION_DECIDED', actor: { kind: 'SYSTEM' }, payload: { decision: 'next', reason: 'a generation finished and steps remain', jobId: job.id } });
    }
    await applyTransition(tx, emit, { taskId: job.taskId, from: task.status, transition: 'requeue', actor: { kind: 'SYSTEM' }, reason: 'generation finished' });
    await ensureTurn(tx, scheduler, { id: job.taskId, workspaceId: task.workspaceId });
  };
}
