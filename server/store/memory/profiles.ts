// Statements on memory_profiles: versioned snapshots of a user's profile, each listing the memory
// versions it was built from (entries[].versionId). A snapshot is never rewritten except to be
// redacted when something it lists is forgotten.
import type { Tx } from '../../db/client.ts';

/**
 * The workspace's snapshots that list any of these versions. Invariant: after a forget redacts
 * every snapshot returned here, no stored profile still shows a forgotten version's content.
 */
export function snapshotsListing(tx: Tx, workspaceId: string, versionIds: string[]): Promise<{ id: string; user_id: string }[]> {
  return tx.$queryRawUnsafe<{ id: string; user_id: string }[]>(
    `SELECT id, user_id FROM memory_profiles
      WHERE workspace_id = $1::uuid AND EXISTS (SELECT 1 FROM jsonb_array_elements(entries) e WHERE e->>'versionId' = ANY($2::text[]))`,
    workspaceId,
    versionIds,
  );
}
