// Targeted cleanup after a forgetting commits. Destroying a key or clearing a row leaves the old row
// version (with the key material or the plaintext) in the table until VACUUM reclaims it; this runs
// it at once on exactly the tables forgetting changes. VACUUM cannot run inside a transaction, so it
// runs after the commit, on its own connection; if the process dies first, autovacuum does it later.
// What stays physically even then: WAL segments not yet recycled, replicas' and backups' copies.
import type { Db } from '../../db/client.ts';

export const FORGETTING_TABLES = [
  'data_keys', 'memory_evidence', 'memory_versions', 'memory_links', 'memory_embeddings', 'memory_summary_sentences',
  'memory_summaries', 'memory_profiles', 'tasks', 'steps', 'approvals', 'object_versions', 'messages', 'task_embeddings', 'task_snapshots',
] as const;

export async function vacuumAfterForgetting(db: Db): Promise<void> {
  // One statement per table: a VACUUM of several tables is still one command, and a lock wait on one
  // (an open transaction holding it) should not keep the others waiting.
  for (const t of FORGETTING_TABLES) await db.$executeRawUnsafe(`VACUUM ${t}`);
}
