// cancelFollowUp: a person (write access to the workspace) cancels a pending follow-up of the agent.
// Under the task's and the follow-up's row locks, so the cancel and the wake see each other: either
// the wake came first (FIRED, the cancel is refused with a sentence) or the cancel did (CANCELLED,
// and the wake's job finds nothing to do). A follow-up already fired or cancelled is a CONFLICT with
// FOLLOW_UP_NOT_PENDING, and nothing changes.
import { z } from 'zod';
import { requireWorkspace, visibleWorkspaceIds } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import { FOLLOW_UP_WAIT } from '../../domain/continuation.ts';
import { conflict, ErrorReason, notFound } from '../../errors.ts';
import { countPendingFollowUps, lockFollowUp, markFollowUpCancelled, readFollowUp, taskOfFollowUp, type FollowUpRow } from '../../store/follow-ups.ts';
import { lockTask } from '../../store/tasks/apply-transition.ts';
import type { Deps } from '../deps.ts';
import { parseInput } from '../validate.ts';

export const CancelFollowUpInput = z.object({ followUpId: z.string().uuid() });

export async function cancelFollowUp(deps: Deps, viewer: Viewer, raw: z.input<typeof CancelFollowUpInput>): Promise<FollowUpRow> {
  const input = parseInput(CancelFollowUpInput, raw);
  const head = await taskOfFollowUp(deps.prisma, input.followUpId);
  // Another workspace's follow-up does not exist for the caller.
  if (!head || !visibleWorkspaceIds(viewer).includes(head.workspaceId)) throw notFound('FollowUp');
  requireWorkspace(viewer, head.workspaceId, 'write', 'FollowUp');
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    const task = await lockTask(tx, head.taskId);
    const f = await lockFollowUp(tx, input.followUpId);
    if (!task || !f) throw notFound('FollowUp');
    if (f.status !== 'PENDING') {
      throw conflict(
        f.status === 'FIRED' ? 'This follow-up already came due and woke the task; there is nothing left to cancel.' : 'This follow-up was already cancelled.',
        { reason: ErrorReason.FOLLOW_UP_NOT_PENDING, status: f.status },
      );
    }
    await markFollowUpCancelled(tx, f.id, viewer.userId, new Date());
    emit(f.taskId, { type: 'FOLLOW_UP_CANCELLED', actor: { kind: 'USER', id: viewer.userId }, payload: { followUpId: f.id, reason: f.reason, note: 'Cancelled by a person.' } });
    // A task that slept only for its follow-ups has nothing left to wait for: it stays as it is (no
    // model call is spent on a cancel), and its reason says so instead of naming a wake that is gone.
    if (task.status === 'WAITING' && (await countPendingFollowUps(tx, f.taskId)) === 0) {
      await tx.task.updateMany({ where: { id: f.taskId, status: 'WAITING', statusReason: FOLLOW_UP_WAIT }, data: { statusReason: 'its follow-up was cancelled: write to the task to go on' } });
    }
    return readFollowUp(tx, f.id);
  });
  return value;
}
