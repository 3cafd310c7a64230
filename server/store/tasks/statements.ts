// Statements that lock a task's row. Writers of a task's state take this lock first in their
// transaction (the task row comes first in the event channel's lock order), so writes to one task
// apply one after the other.
import type { Tx } from '../../db/client.ts';
import type { TaskStatus } from '../../domain/task-status.ts';

/**
 * Locks a task's row and reads its status (empty when the task does not exist). Invariant: a
 * transition is decided from the status read under this lock, so two concurrent transitions of a
 * task never both start from the same status.
 */
export function lockTaskStatus(tx: Tx, taskId: string): Promise<{ status: TaskStatus; workspace_id: string }[]> {
  return tx.$queryRawUnsafe<{ status: TaskStatus; workspace_id: string }[]>('SELECT status, workspace_id FROM tasks WHERE id = $1::uuid FOR UPDATE', taskId);
}

/**
 * Locks a task's row and reads its current checklist version (empty when the task does not exist).
 * Invariant: the next checklist version is this one plus one, written before the lock is released,
 * so checklist versions are gap-free.
 */
export function lockChecklistVersion(tx: Tx, taskId: string): Promise<{ checklist_version: number }[]> {
  return tx.$queryRawUnsafe<{ checklist_version: number }[]>('SELECT checklist_version FROM tasks WHERE id = $1::uuid FOR UPDATE', taskId);
}
