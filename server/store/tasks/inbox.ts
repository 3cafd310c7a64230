// Statements that file signals into a task's inbox (inbox_items). What the runtime reads and
// consumes from the inbox is in store/journal/inbox.ts.
import type { Tx } from '../../db/client.ts';

export type SignalItem = {
  taskId: string;
  workspaceId: string;
  signal: string;
  text: string | null;
  authorUserId: string;
  /** Stored as given; a client's key is namespaced by the caller (clientKey). */
  idempotencyKey: string | null;
  /** Set for signals applied on the spot; null for those a step reads later. */
  consumedAt: Date | null;
  /** The input policy the instruction arrived with (null: the task's). */
  inputPolicy?: string | null;
};


/**
 * Files a signal; returns its id, or nothing when the task already has an item with this
 * idempotency key. Invariant: unique (task, idempotency key), so the same key never applies a
 * signal twice, however often it is retried.
 */
export function insertSignal(tx: Tx, s: SignalItem): Promise<{ id: string }[]> {
  return tx.$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO inbox_items (id, task_id, workspace_id, kind, signal, text, author_user_id, idempotency_key, created_at, consumed_at, input_policy)
         VALUES (gen_random_uuid(), $1::uuid, $2::uuid, 'SIGNAL', $3, $4, $5::uuid, $6, now(), $7::timestamptz, $8::"InputPolicy")
         ON CONFLICT (task_id, idempotency_key) DO NOTHING RETURNING id`,
    s.taskId,
    s.workspaceId,
    s.signal,
    s.text,
    s.authorUserId,
    s.idempotencyKey,
    s.consumedAt,
    s.inputPolicy ?? null,
  );
}
