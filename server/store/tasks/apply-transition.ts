// The one place a task's status changes: decide with the pure state machine, write the row, append
// the TASK_STATUS_CHANGED event — inside the caller's transaction, with the task row locked by
// lockTask first. Used by user signals (signal-task.ts), internal transitions (transition-task.ts)
// and the runtime (runtime/lease.ts, runtime/turn-end.ts).
import type { Actor } from '../../channel/types.ts';
import type { Emit } from '../../channel/unit-of-work.ts';
import type { Tx } from '../../db/client.ts';
import { decideTransition, isTerminal, type TaskStatus, type TaskTransition, type TransitionDecision } from '../../domain/task-status.ts';
import { cancelPendingFollowUps } from '../follow-ups.ts';
import { lockTaskStatus } from './statements.ts';

/** Locks the task's row for the rest of the transaction; undefined when there is no such task. */
export async function lockTask(tx: Tx, taskId: string): Promise<{ status: TaskStatus; workspaceId: string } | undefined> {
  const rows = await lockTaskStatus(tx, taskId);
  const r = rows[0];
  return r ? { status: r.status, workspaceId: r.workspace_id } : undefined;
}

/** Applies the transition when the state machine allows it; returns the decision either way. */
export async function applyTransition(
  tx: Tx,
  emit: Emit,
  args: { taskId: string; from: TaskStatus; transition: TaskTransition; actor: Actor; reason?: string | null },
): Promise<TransitionDecision> {
  const d = decideTransition(args.from, args.transition);
  if (d.kind !== 'move') return d;
  await tx.task.update({
    where: { id: args.taskId },
    data: { status: d.to, statusReason: args.reason ?? null, ...(isTerminal(d.to) ? { endedAt: new Date() } : {}) },
  });
  if (isTerminal(d.to)) {
    // Nobody can decide for an ended task any more: its open cards close with it.
    await tx.approval.updateMany({
      where: { taskId: args.taskId, status: 'PENDING' },
      data: { status: 'CANCELLED', resolvedAt: new Date(), note: `task ended as ${d.to}` },
    });
  }
  emit(args.taskId, {
    type: 'TASK_STATUS_CHANGED',
    actor: args.actor,
    payload: { from: d.from, to: d.to, transition: args.transition, reason: args.reason ?? null },
  });
  if (isTerminal(d.to)) {
    // Nothing is left to come back to: the agent's pending follow-ups end with the task (after the
    // status event, so the timeline reads "cancelled", then what went with it).
    const byUser = args.actor.kind === 'USER' ? (args.actor.id ?? null) : null;
    await cancelPendingFollowUps(tx, emit, args.taskId, { actor: args.actor, byUserId: byUser, note: `The task ended as ${d.to.toLowerCase().replace('_', ' ')}.` });
  }
  return d;
}
