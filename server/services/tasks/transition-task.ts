// Moves a task through its state machine (domain/task-status.ts) and appends the event, in one
// transaction with the task row locked. Used for user signals and, later, by the runtime.
import type { Actor } from '../../channel/types.ts';
import { transactWithEvents, withAppendedSeq } from '../../channel/unit-of-work.ts';
import type { Deps } from '../../deps.ts';
import { decideTransition, isTerminal, type TaskStatus, type TaskTransition } from '../../domain/task-status.ts';
import { conflict, notFound } from '../../errors.ts';

export async function transitionTask(
  deps: Pick<Deps, 'prisma' | 'notifier'>,
  args: { taskId: string; transition: TaskTransition; actor: Actor; reason?: string | null },
) {
  const { value, events } = await transactWithEvents(deps, async (tx, emit) => {
    const locked = await tx.$queryRawUnsafe<{ status: TaskStatus }[]>(
      'SELECT status FROM tasks WHERE id = $1::uuid FOR UPDATE',
      args.taskId,
    );
    const current = locked[0];
    if (!current) throw notFound('Task');
    const d = decideTransition(current.status, args.transition);
    if (d.kind === 'reject') throw conflict(d.reason, { status: d.from });
    if (d.kind === 'noop') return tx.task.findUniqueOrThrow({ where: { id: args.taskId } });
    const task = await tx.task.update({
      where: { id: args.taskId },
      data: {
        status: d.to,
        statusReason: args.reason ?? null,
        ...(isTerminal(d.to) ? { endedAt: new Date() } : {}),
      },
    });
    emit(task.id, {
      type: 'TASK_STATUS_CHANGED',
      actor: args.actor,
      payload: { from: d.from, to: d.to, transition: args.transition, reason: args.reason ?? null },
    });
    return task;
  });
  return withAppendedSeq(value, events);
}
