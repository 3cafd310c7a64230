// Creating turns. At most one live (QUEUED or RUNNING) turn per task is enforced by a partial unique
// index, so API, workers and watchdogs may all call ensureTurn without coordinating.
import type { Tx } from '../db/client.ts';
import type { Scheduler } from './scheduler.ts';

/**
 * Queues the task's next turn (number = last + 1, generation 0) unless it has a live one; returns
 * the new turn's id, or nothing. Invariant: at most one QUEUED or RUNNING turn per task — a
 * concurrent insert loses on the partial unique index and inserts nothing.
 */
export function insertNextTurn(tx: Tx, task: { id: string; workspaceId: string }): Promise<{ id: string }[]> {
  return tx.$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO turns (id, task_id, workspace_id, number, status, generation, enqueued_at, created_at)
     SELECT gen_random_uuid(), $1::uuid, $2::uuid, COALESCE(MAX(number), 0) + 1, 'QUEUED', 0, now(), now()
       FROM turns WHERE task_id = $1::uuid
     ON CONFLICT (task_id) WHERE status IN ('QUEUED', 'RUNNING') DO NOTHING
     RETURNING id`,
    task.id,
    task.workspaceId,
  );
}

/** The task's live turn, queued now (with its wake-up job in this transaction) if it had none. */
export async function ensureTurn(
  tx: Tx,
  scheduler: Scheduler,
  task: { id: string; workspaceId: string },
): Promise<{ turnId: string; created: boolean }> {
  const created = await insertNextTurn(tx, task);
  if (created[0]) {
    await scheduler.enqueueTurn(tx, { turnId: created[0].id, generation: 0 });
    return { turnId: created[0].id, created: true };
  }
  const live = await tx.turn.findFirstOrThrow({
    where: { taskId: task.id, status: { in: ['QUEUED', 'RUNNING'] } },
    select: { id: true },
  });
  return { turnId: live.id, created: false };
}
