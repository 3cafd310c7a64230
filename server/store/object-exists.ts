// Whether a workspace object exists, without locking it: the check an approved action makes before
// it locks the object (store/objects/store.ts lockObject), so an object that is gone is reported
// as such instead of failing the approval. Kept apart from store/objects until that module's own
// statements settle; it belongs with them.
import type { Tx } from '../db/client.ts';

/** The object's id when it exists in this workspace (empty otherwise). Invariant: an object of another workspace is never found. */
export function objectInWorkspace(tx: Tx, workspaceId: string, objectId: string): Promise<{ id: string }[]> {
  return tx.$queryRawUnsafe<{ id: string }[]>('SELECT id FROM workspace_objects WHERE id = $1::uuid AND workspace_id = $2::uuid', objectId, workspaceId);
}
