// Statements behind the router's task index: the workspace's tasks (not archived, not merged) —
// live and finished — found by recency, by words (full-text rank plus trigram similarity), by the
// names of their objects, or by id; the recently archived ones, shown with their state; what each
// task refers to and produced (object names, finished checklist steps with results); and the
// per-task embeddings that find tasks sharing no words with a message. Sizes and field lengths are
// bind parameters chosen by the router, so every statement's text is fixed.
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
  createdAt: Date;
  endedAt: Date | null;
  archivedAt: Date | null;
  /** Full-text rank + trigram similarity; 0 when found by recency or id. */
  retrieval: number;
};

/** The columns of an index entry; goal and summary cut to $2 characters in the database. */
const INDEX_COLUMNS =
  `id, title, left(goal, $2::int) AS goal, left(summary, $2::int) AS summary, status, kind, language, last_activity_at AS "lastActivityAt", ` +
  `created_at AS "createdAt", ended_at AS "endedAt", archived_at AS "archivedAt"`;

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

/**
 * The workspace's tasks archived since `since`, most recently archived first: they stay in the
 * index with their state for a while, so that a message can still name them (a new edition, a
 * question about them). Merged tasks never enter.
 */
export function recentlyArchivedTasks(db: Db, p: { workspaceId: string; fieldChars: number; since: Date; limit: number }): Promise<IndexedTaskRow[]> {
  return db.$queryRawUnsafe<IndexedTaskRow[]>(
    `SELECT ${INDEX_COLUMNS}, 0::float8 AS retrieval FROM tasks
      WHERE workspace_id = $1::uuid AND archived_at >= $3 AND merged_into_id IS NULL
      ORDER BY archived_at DESC LIMIT $4`,
    p.workspaceId,
    p.fieldChars,
    p.since,
    p.limit,
  );
}

/**
 * The workspace's tasks that refer to an object whose name appears in the text (trigram word
 * similarity: "Kestrel lager label v3" in "kestrel lager label v3: nudge the hops"), best first.
 * Archived and merged tasks never match.
 */
export function tasksByObjectNames(db: Db, p: { workspaceId: string; text: string; fieldChars: number; limit: number }): Promise<IndexedTaskRow[]> {
  return db.$queryRawUnsafe<IndexedTaskRow[]>(
    `SELECT ${INDEX_COLUMNS}, m.retrieval FROM tasks
       JOIN (SELECT r.task_id, max(word_similarity(o.name, $3))::float8 AS retrieval
               FROM workspace_objects o JOIN task_object_refs r ON r.object_id = o.id::text
              WHERE o.workspace_id = $1::uuid AND o.deleted_at IS NULL AND o.name <% $3
              GROUP BY r.task_id) m ON m.task_id = tasks.id
      WHERE workspace_id = $1::uuid AND archived_at IS NULL AND merged_into_id IS NULL
      ORDER BY m.retrieval DESC LIMIT $4`,
    p.workspaceId,
    p.fieldChars,
    p.text,
    p.limit,
  );
}

export type TaskDetailRow = { taskId: string; kind: 'object' | 'result'; name: string };

/**
 * What the given tasks refer to and produced, at most `limit` names of each kind per task, newest
 * first, each cut to `nameChars`: `object` — the names of the workspace objects the task refers to
 * (the reference itself when it names no object); `result` — the names of the objects it wrote
 * and the titles of its finished checklist steps that have results.
 */
export function taskDetails(db: Db, p: { taskIds: string[]; nameChars: number; limit: number }): Promise<TaskDetailRow[]> {
  return db.$queryRawUnsafe<TaskDetailRow[]>(
    `WITH ids AS (SELECT jsonb_array_elements_text($1::jsonb)::uuid AS id),
     refs AS (
       SELECT r.task_id, 'object' AS kind, coalesce(o.name, r.object_id) AS name, r.created_at AS at
         FROM task_object_refs r LEFT JOIN workspace_objects o ON o.id::text = r.object_id AND o.deleted_at IS NULL
        WHERE r.task_id IN (SELECT id FROM ids)),
     written AS (
       SELECT v.author_task_id AS task_id, 'result' AS kind, o.name, max(v.created_at) AS at
         FROM object_versions v JOIN workspace_objects o ON o.id = v.object_id AND o.deleted_at IS NULL
        WHERE v.author_task_id IN (SELECT id FROM ids)
        GROUP BY v.author_task_id, o.id, o.name),
     steps AS (
       SELECT c.task_id, 'result' AS kind, i.item->>'title' AS name, c.created_at AS at
         FROM task_checklists c JOIN tasks t ON t.id = c.task_id AND c.version = t.checklist_version
        CROSS JOIN LATERAL jsonb_array_elements(c.items) AS i(item)
        WHERE c.task_id IN (SELECT id FROM ids) AND i.item->>'status' = 'DONE'
          AND jsonb_array_length(coalesce(i.item->'artifacts', '[]'::jsonb)) > 0),
     named AS (SELECT * FROM refs UNION ALL SELECT * FROM written UNION ALL SELECT * FROM steps)
     SELECT "taskId", kind, name FROM (
       SELECT task_id::text AS "taskId", kind, left(name, $2::int) AS name,
              row_number() OVER (PARTITION BY task_id, kind ORDER BY at DESC, name) AS k
         FROM named WHERE name IS NOT NULL) x
      WHERE k <= $3
      ORDER BY "taskId", kind, k`,
    JSON.stringify(p.taskIds),
    p.nameChars,
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
