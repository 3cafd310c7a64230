// Statements on memory_embeddings: one vector per memory version (L2-normalised by the caller),
// written after the version's transaction commits and deleted when the version is forgotten.
import type { Db } from '../../db/client.ts';

/**
 * Stores (or replaces) a version's embedding. `vector` is a PostgreSQL array literal. Invariant:
 * written only while the version is not FORGOTTEN, in the same statement that checks it, so an
 * embedding computed before a concurrent forget never outlives the forget.
 */
export function upsertVersionEmbedding(db: Db, p: { versionId: string; model: string; vector: string }): Promise<number> {
  return db.$executeRawUnsafe(
    `INSERT INTO memory_embeddings (version_id, model, vector, created_at)
       SELECT $1::uuid, $2, $3::real[], now() FROM memory_versions WHERE id = $1::uuid AND status <> 'FORGOTTEN'
       ON CONFLICT (version_id) DO UPDATE SET model = EXCLUDED.model, vector = EXCLUDED.vector`,
    p.versionId,
    p.model,
    p.vector,
  );
}
