// Statements behind the router's task index: the workspace's live tasks (not archived, not merged)
// found by recency, by words (full-text rank plus trigram similarity) or by id, and the per-task
// embeddings that find tasks sharing no words with a message. Sizes and field lengths are bind
// parameters chosen by the router, so every statement's text is fixed.
import type { Db } from '../db/client.ts';

export type IndexedTaskRow = {
  id: string;
  title: string;
  goal: string;
  summary: string;
  status: string;
  kind: 'PERSISTENT' | 'LIGHTWEIGHT';
  language: string | null;
  lastActivityAt: Date;
  /** Full-text rank + trigram similarity; 0 when found by recency or id. */
  retrieval: number;
};

/** The columns of an index entry; goal and summary cut to $2 characters in the database. */
const INDEX_COLUMNS = `id, title, left(goal, $2::int) AS goal, left(summary, $2::int) AS summary, status, kind, language, last_activity_at AS "lastActivityAt"`;

/**
 * The workspace's most recently active tasks. Invariant: archived tasks and tasks merged into
 * another never enter the index.
 */
export function recentTasks(db: Db, p: { workspaceId: string; fieldChars: number; limit: number }): Promise<IndexedTaskRow[]> {
  return db.$queryRawUnsafe<IndexedTaskRow[]>(
    `SELECT ${INDEX_COLUMNS}, 0::float8 AS retrieval FROM tasks
      WHERE workspace_id = $1::uuid AND archived_at IS NULL AND merged_into_id IS NULL
      ORDER BY last_activity_at DESC LIMIT $3`,
    p.workspaceId,
    p.fieldChars,
    p.limit,
  );
}

/**
 * The workspace's tasks whose words match the text (full text or trigram), best first. Same
 * invariant as recentTasks: archived and merged tasks never match.
 */
export function matchingTasks(db: Db, p: { workspaceId: string; text: string; fieldChars: number; limit: number }): Promise<IndexedTaskRow[]> {
  return db.$queryRawUnsafe<IndexedTaskRow[]>(
    `SELECT ${INDEX_COLUMNS},
            (ts_rank(search_tsv, plainto_tsquery('simple', $3)) + similarity(search_text, $3))::float8 AS retrieval
       FROM tasks
      WHERE workspace_id = $1::uuid AND archived_at IS NULL AND merged_into_id IS NULL
        AND (search_tsv @@ plainto_tsquery('simple', $3) OR search_text % $3)
      ORDER BY retrieval DESC LIMIT $4`,
    p.workspaceId,
    p.fieldChars,
    p.text,
    p.limit,
  );
}

/** Tasks by id, as index rows (the ids come from this workspace's embeddings). */
export function tasksByIds(db: Db, p: { ids: string[]; fieldChars: number }): Promise<IndexedTaskRow[]> {
  return db.$queryRawUnsafe<IndexedTaskRow[]>(
    `SELECT ${INDEX_COLUMNS}, 0::float8 AS retrieval FROM tasks WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid)`,
    JSON.stringify(p.ids),
    p.fieldChars,
  );
}

/**
 * The workspace's unarchived tasks without an embedding of their current text by this model, most
 * recently active first. Invariant: callers store as text_hash the first 32 hex digits of the
 * SHA-256 of the search text (routing/embeddings.ts), the value computed here, so a task is
 * re-embedded exactly when its text or the model changed.
 */
export function staleTaskEmbeddings(db: Db, p: { workspaceId: string; model: string; limit: number }): Promise<{ id: string; text: string }[]> {
  return db.$queryRawUnsafe<{ id: string; text: string }[]>(
    `SELECT t.id, t.search_text AS text FROM tasks t
       LEFT JOIN task_embeddings e ON e.task_id = t.id
      WHERE t.workspace_id = $1::uuid AND t.archived_at IS NULL
        AND (e.task_id IS NULL OR e.model <> $2 OR e.text_hash <> left(encode(sha256(convert_to(t.search_text, 'UTF8')), 'hex'), 32))
      ORDER BY t.last_activity_at DESC LIMIT $3`,
    p.workspaceId,
    p.model,
    p.limit,
  );
}

/**
 * Stores a task's embedding. `vector` is a PostgreSQL array literal of the L2-normalised vector.
 * Invariant: one embedding per task — the latest replaces the previous one.
 */
export function upsertTaskEmbedding(db: Db, p: { taskId: string; model: string; textHash: string; vector: string }): Promise<number> {
  return db.$executeRawUnsafe(
    `INSERT INTO task_embeddings (task_id, model, text_hash, vector, updated_at) VALUES ($1::uuid, $2, $3, $4::real[], now())
       ON CONFLICT (task_id) DO UPDATE SET model = EXCLUDED.model, text_hash = EXCLUDED.text_hash, vector = EXCLUDED.vector, updated_at = now()`,
    p.taskId,
    p.model,
    p.textHash,
    p.vector,
  );
}

/**
 * The workspace's live tasks most similar to a query vector (an L2-normalised PostgreSQL array
 * literal), by dot product: with unit vectors, the cosine similarity. Only embeddings of `model`
 * are compared, so vectors of different models never meet. Invariant: archived and merged tasks
 * never match.
 */
export function similarTasks(db: Db, p: { workspaceId: string; model: string; vector: string; limit: number }): Promise<{ task_id: string; similarity: number }[]> {
  return db.$queryRawUnsafe<{ task_id: string; similarity: number }[]>(
    `SELECT e.task_id, (SELECT sum(a * b) FROM unnest(e.vector, $3::real[]) AS x(a, b))::float8 AS similarity
       FROM task_embeddings e JOIN tasks t ON t.id = e.task_id
      WHERE t.workspace_id = $1::uuid AND t.archived_at IS NULL AND t.merged_into_id IS NULL AND e.model = $2
      ORDER BY similarity DESC LIMIT $4`,
    p.workspaceId,
    p.model,
    p.vector,
    p.limit,
  );
}
