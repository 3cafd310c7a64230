// Statements for "works stay the person's": the values a forgetting is about, read before it runs
// (forgetting clears them), and the works part of a forget card (`approvals.action.works`).
// Invariant: the works part is the only member of a forget card's action these statements change;
// the card's decision (status, resolver) is never touched here.
import type { Db, Tx } from '../../db/client.ts';

/** The remembered values of one memory (every version not already forgotten). */
export async function valuesOfMemory(db: Db, memoryId: string): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ value: string }[]>(
    `SELECT DISTINCT value FROM memory_versions WHERE memory_id = $1::uuid AND forgotten_at IS NULL AND value <> ''`,
    memoryId,
  );
  return rows.map((r) => r.value);
}

/**
 * The values resting on a source: versions linked to it (origin, refinement, confirmation) and the
 * merges derived from those, as forgetting the source follows them.
 */
export async function valuesRestingOn(db: Db, evidenceId: string): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ value: string }[]>(
    `WITH RECURSIVE dep AS (
       SELECT v.id, v.value, v.forgotten_at FROM memory_versions v JOIN memory_links l ON l.version_id = v.id WHERE l.evidence_id = $1::uuid
       UNION
       SELECT v.id, v.value, v.forgotten_at FROM memory_versions v JOIN dep d ON v.derived_from_id = d.id
     )
     SELECT DISTINCT value FROM dep WHERE forgotten_at IS NULL AND value <> ''`,
    evidenceId,
  );
  return rows.map((r) => r.value);
}

/** Replaces the works part of a card's action (the rest of the action stays as filed). */
export async function setApprovalWorks(tx: Tx, approvalId: string, works: unknown): Promise<void> {
  await tx.$executeRawUnsafe(`UPDATE approvals SET action = jsonb_set(action, '{works}', $2::jsonb) WHERE id = $1::uuid`, approvalId, JSON.stringify(works));
}
