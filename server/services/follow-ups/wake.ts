// A follow-up coming due: the job of its wake, applied in one transaction under the task's and the
// follow-up's row locks. Only a PENDING follow-up of a live task does anything, and it does it once:
// it becomes FIRED, its reminder goes into the task's inbox (keyed by the follow-up, so once) and
// the task is woken — unless it is paused (a follow-up never resumes what a person paused: the
// reminder waits for their resume) or waits on a person's decision (that decision wakes it). A wake
// that lands inside quiet hours (changed since it was scheduled) moves to their end instead; one
// whose workspace turned follow-ups off, or whose task ended, is cancelled. A FIRED or CANCELLED
// follow-up is a no-op, so a late, repeated or re-sent job changes nothing.
//
// Money: the woken turn is an ordinary turn; every paid action in it passes the approvals gate.
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import { followUpInboxText, followUpWake, isQuiet, wakeTimeFor } from '../../domain/follow-ups.ts';
import {
  insertFollowUpReminder,
  lockFollowUp,
  markFollowUpCancelled,
  markFollowUpFired,
  moveFollowUpWake,
  readFollowUpSettings,
  sendFollowUpJob,
  taskOfFollowUp,
} from '../../store/follow-ups.ts';
import { countPendingApprovals } from '../../store/journal/waits.ts';
import { applyTransition, lockTask } from '../../store/tasks/apply-transition.ts';
import { ensureTurn } from '../../store/turns.ts';
import type { Deps } from '../deps.ts';

export type FollowUpDeps = Pick<Deps, 'prisma' | 'notifier' | 'scheduler'>;

/**
 * What applying a wake did: `woke` the task, `delivered` the reminder only (paused, or waiting for a
 * person), `deferred` it past quiet hours, `early` (not due yet: its job was sent again for its
 * time), `cancelled` it (task ended, follow-ups turned off), or `none` (already fired or cancelled,
 * or gone with its task).
 */
export type FireOutcome = 'woke' | 'delivered' | 'deferred' | 'early' | 'cancelled' | 'none';

/** A job may run a little before its time by the clocks of this process and the database. */
const EARLY_TOLERANCE_MS = 5_000;

export async function fireFollowUp(deps: FollowUpDeps, followUpId: string, now: () => Date = () => new Date()): Promise<FireOutcome> {
  const head = await taskOfFollowUp(deps.prisma, followUpId);
  if (!head) return 'none';
  const { value } = await transactWithEvents(deps, async (tx, emit): Promise<FireOutcome> => {
    // The task's row first, then the follow-up's: the order of the tool, the cancel and a task's end.
    const task = await lockTask(tx, head.taskId);
    const f = await lockFollowUp(tx, followUpId);
    if (!task || !f || f.status !== 'PENDING') return 'none';
    const at = now();
    const system = { kind: 'SYSTEM' as const };
    const cancel = async (note: string): Promise<FireOutcome> => {
      await markFollowUpCancelled(tx, f.id, null, at);
      emit(f.taskId, { type: 'FOLLOW_UP_CANCELLED', actor: system, payload: { followUpId: f.id, reason: f.reason, note } });
      return 'cancelled';
    };
    const settings = await readFollowUpSettings(tx, f.workspaceId);
    if (followUpWake(task.status, 0) === 'cancel') return cancel(`The task had ended (${task.status.toLowerCase().replace('_', ' ')}).`);
    // The person's settings decide at the time of the wake, not only when it was asked for.
    if (!settings.enabled) return cancel('Follow-ups were turned off in this workspace before it came due.');
    if (f.wakeAt.getTime() - at.getTime() > EARLY_TOLERANCE_MS) {
      await sendFollowUpJob(tx, deps.scheduler, f);
      return 'early';
    }
    if (isQuiet(at, settings.quiet)) {
      const wakeAt = wakeTimeFor(at, settings.quiet);
      await moveFollowUpWake(tx, f.id, wakeAt);
      // This job is running, so the queue holds no other waiting job under the follow-up's key.
      await sendFollowUpJob(tx, deps.scheduler, { id: f.id, wakeAt });
      emit(f.taskId, { type: 'FOLLOW_UP_DEFERRED', actor: system, payload: { followUpId: f.id, previousWakeAt: f.wakeAt.toISOString(), wakeAt: wakeAt.toISOString() } });
      return 'deferred';
    }
    const action = followUpWake(task.status, task.status === 'WAITING' ? await countPendingApprovals(tx, f.taskId) : 0);
    await markFollowUpFired(tx, f.id, at);
    const inboxItemId = await insertFollowUpReminder(tx, { taskId: f.taskId, workspaceId: f.workspaceId, followUpId: f.id, text: followUpInboxText(f) });
    emit(f.taskId, { type: 'FOLLOW_UP_FIRED', actor: system, payload: { followUpId: f.id, reason: f.reason, inboxItemId, woke: action === 'wake' } });
    if (action !== 'wake') return 'delivered';
    if (task.status === 'WAITING') await applyTransition(tx, emit, { taskId: f.taskId, from: task.status, transition: 'requeue', actor: system, reason: 'a follow-up came due' });
    // A running turn reads the reminder at its next step; otherwise a turn is queued for it.
    await ensureTurn(tx, deps.scheduler, { id: f.taskId, workspaceId: f.workspaceId });
    return 'woke';
  });
  return value;
}
