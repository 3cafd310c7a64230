// Moves a task through its state machine in its own transaction (internal callers and tests; user
// signals go through signal-task.ts). A rejected transition is a CONFLICT that changes nothing.
import type { Actor } from '../../channel/types.ts';
import { transactWithEvents, withAppendedSeq } from '../../channel/unit-of-work.ts';
import type { Deps } from '../deps.ts';
import type { TaskTransition } from '../../domain/task-status.ts';
import { conflict, notFound } from '../../errors.ts';
import { applyTransition, lockTask } from '../../store/tasks/apply-transition.ts';

export async function transitionTask(
  deps: Pick<Deps, 'prisma' | 'notifier'>,
  args: { taskId: string; transition: TaskTransition; actor: Actor; reason?: string | null },
) {
  const { value, events } = await transactWithEvents(deps, async (tx, emit) => {
    const current = await lockTask(tx, args.taskId);
    if (!current) throw notFound('Task');
    const d = await applyTransition(tx, emit, { ...args, from: current.status });
    if (d.kind === 'reject') throw conflict(d.reason, { status: d.from });
    return tx.task.findUniqueOrThrow({ where: { id: args.taskId } });
  });
  return withAppendedSeq(value, events);
}
