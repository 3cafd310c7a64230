// Statements on memory_uses (which memory versions and evidence a task's step was shown) and on
// what relied on forgotten material: the steps that used it and the inbox items of revoked
// messages. A use names its step by ordinal — the step's position in the task's execution order
// (turn number, then step index, from 0) — because it is recorded before the step's row exists.
import type { Db, Tx } from '../../db/client.ts';

/** Every step of a task with its ordinal. Invariant: ordinals are 0..n-1 in (turn number, step index) order. */
export function stepOrdinals(db: Db, taskId: string): Promise<{ id: string; ordinal: number }[]> {
  return db.$queryRawUnsafe<{ id: string; ordinal: number }[]>(
    `SELECT s.id, (row_number() OVER (ORDER BY t.number, s.index) - 1)::int AS ordinal
         FROM steps s JOIN turns t ON t.id = s.turn_id WHERE s.task_id = $1::uuid`,
    taskId,
  );
}

/**
 * Redacts steps that used forgotten material: the stored request (which held the memory section)
 * is dropped and the reply text replaced by `withheld`; the rest of the decision (its tool calls)
 * is kept. Returns the number of steps changed.
 */
export function withholdStepReplies(tx: Tx, stepIds: string[], withheld: string): Promise<number> {
  return tx.$executeRawUnsafe(
    `UPDATE steps SET request = NULL, decision = jsonb_set(decision, '{content}', to_jsonb($2::text)) WHERE id = ANY($1::uuid[])`,
    stepIds,
    withheld,
  );
}

/**
 * The (task, step ordinal) positions of a task that were shown a version now FORGOTTEN or evidence now
 * REVOKED. It runs before every step, and a long task has thousands of uses: each half is a join the
 * planner can drive by primary key from the task's uses or from the few forgotten versions
 * (the partial index memory_versions_forgotten_idx; revoked evidence likewise), where outer joins,
 * or EXISTS under OR, let it hash every version or all the evidence of the database once a task
 * had many uses.
 */
export function forgottenUses(db: Db, taskId: string): Promise<{ task_id: string; step_ordinal: number }[]> {
  return db.$queryRawUnsafe<{ task_id: string; step_ordinal: number }[]>(
    `SELECT u.task_id, u.step_ordinal FROM memory_uses u JOIN memory_versions v ON v.id = u.version_id AND v.workspace_id = u.workspace_id
        WHERE u.task_id = $1::uuid AND v.status = 'FORGOTTEN'
     UNION
     SELECT u.task_id, u.step_ordinal FROM memory_uses u JOIN memory_evidence e ON e.id = u.evidence_id
        WHERE u.task_id = $1::uuid AND e.status = 'REVOKED'`,
    taskId,
  );
}

/**
 * A task's inbox items delivering a message whose evidence was revoked. Invariant: a message's
 * inbox item is keyed `message:<message id>`, the key this statement joins on. It runs before every
 * step: the join's evidence side is the partial expression index memory_evidence_revoked_message_key
 * (migration memory_retrieval_indexes), so it reads the task's inbox items and probes the few
 * revoked rows instead of scanning all evidence.
 */
export function revokedInboxItems(db: Db, taskId: string): Promise<{ id: string }[]> {
  return db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT i.id FROM inbox_items i JOIN memory_evidence e ON i.idempotency_key = 'message:' || e.message_id::text
        WHERE i.task_id = $1::uuid AND e.status = 'REVOKED'`,
    taskId,
  );
}

/**
 * The steps that read the messages behind this evidence (through the inbox item that delivered
 * each to a task, keyed `message:<message id>`): their requests hold the message's words.
 */
export function stepsThatReadEvidence(db: Db, evidenceIds: string[]): Promise<{ id: string }[]> {
  return db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT DISTINCT s.id FROM memory_evidence e
       JOIN inbox_items i ON i.idempotency_key = 'message:' || e.message_id::text
       JOIN steps s ON i.consumed_turn_id = s.turn_id AND i.consumed_step = s.index
      WHERE e.id = ANY($1::uuid[])`,
    evidenceIds,
  );
}

/** The steps that read these inbox items (the step that consumed each). */
export function stepsThatRead(db: Db, inboxIds: string[]): Promise<{ id: string }[]> {
  return db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT s.id FROM steps s JOIN inbox_items i ON i.consumed_turn_id = s.turn_id AND i.consumed_step = s.index WHERE i.id = ANY($1::uuid[])`,
    inboxIds,
  );
}

export type MemoryUseRow = {
  memory_id: string;
  task_id: string;
  step_ordinal: number;
  step_id: string | null;
  turn_number: number | null;
  step_index: number | null;
  number: number;
  used_at: Date;
};

/**
 * Where the versions of some memories were used: one row per (memory, task, step ordinal,
 * version), newest first, with the step resolved from its ordinal (null while it is not written).
 */
export function usesOfMemories(db: Db, memoryIds: string[]): Promise<MemoryUseRow[]> {
  return db.$queryRawUnsafe<MemoryUseRow[]>(
    `WITH steps_ordered AS (
       SELECT s.id, s.task_id, t.number AS turn_number, s.index AS step_index, (row_number() OVER (PARTITION BY s.task_id ORDER BY t.number, s.index) - 1)::int AS ordinal
         FROM steps s JOIN turns t ON t.id = s.turn_id
        WHERE s.task_id IN (SELECT u.task_id FROM memory_uses u JOIN memory_versions v ON v.id = u.version_id WHERE v.memory_id = ANY($1::uuid[])))
     SELECT v.memory_id, u.task_id, u.step_ordinal, so.id AS step_id, so.turn_number, so.step_index, v.number, min(u.created_at) AS used_at
       FROM memory_uses u JOIN memory_versions v ON v.id = u.version_id
       LEFT JOIN steps_ordered so ON so.task_id = u.task_id AND so.ordinal = u.step_ordinal
      WHERE v.memory_id = ANY($1::uuid[])
      GROUP BY v.memory_id, u.task_id, u.step_ordinal, so.id, so.turn_number, so.step_index, v.number
      ORDER BY used_at DESC`,
    memoryIds,
  );
}
