// Statements on memory_evidence: the sources memory is learnt from (messages, notes). A row is
// never deleted; revoking it clears its text and keeps its hash as a tombstone. Writers that change
// what a piece of evidence founds lock its row first, so a forget and an extraction of the same
// evidence run one after the other.
import type { Db, Tx } from '../../db/client.ts';

/**
 * Locks one piece of evidence of a workspace (empty when it is not that workspace's). Invariant: a
 * forget holds this lock while it revokes and rebuilds, so two forgets of the same evidence
 * serialise and the second finds it REVOKED.
 */
export function lockWorkspaceEvidence(tx: Tx, evidenceId: string, workspaceId: string): Promise<{ id: string }[]> {
  return tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM memory_evidence WHERE id = $1::uuid AND workspace_id = $2::uuid FOR UPDATE`,
    evidenceId,
    workspaceId,
  );
}

/**
 * Locks one piece of evidence (empty when it does not exist). Invariant: an extraction holds this
 * lock while it checks its record and applies its effects, so an extractor version applies a piece
 * of evidence at most once and never after a forget revoked it.
 */
export function lockEvidence(tx: Tx, evidenceId: string): Promise<{ id: string }[]> {
  return tx.$queryRawUnsafe<{ id: string }[]>(`SELECT id FROM memory_evidence WHERE id = $1::uuid FOR UPDATE`, evidenceId);
}

/**
 * A user's ACTIVE evidence in a workspace that this extractor version has not extracted yet, oldest
 * first (so later evidence supersedes earlier evidence, as it did when it arrived). Revoked evidence
 * is never returned.
 */
export function unextractedEvidence(db: Db, p: { workspaceId: string; userId: string; extractorVersion: string }): Promise<{ id: string }[]> {
  return db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT e.id FROM memory_evidence e
      WHERE e.workspace_id = $1::uuid AND e.user_id = $2::uuid AND e.status = 'ACTIVE'
        AND NOT EXISTS (SELECT 1 FROM memory_extractions x WHERE x.evidence_id = e.id AND x.extractor_version = $3)
      ORDER BY e.occurred_at, e.created_at`,
    p.workspaceId,
    p.userId,
    p.extractorVersion,
  );
}
