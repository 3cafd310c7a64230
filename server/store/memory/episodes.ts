// Statements on episodic memory: the sentences of phase summaries (one user, one task or the thread,
// one UTC day — `phase_key` is "task:<uuid>:<YYYY-MM-DD>" or "thread:<YYYY-MM-DD>"), with the task
// they belong to and the memory version they rest on. Scope isolation is part of every read: the
// summaries of this workspace and of this user only.
import { rawQuery, type Db } from '../../db/client.ts';

export type EpisodeRow = {
  sentence_id: string;
  summary_id: string;
  phase_key: string;
  /** The phase's UTC day (midnight). */
  day: Date;
  task_id: string | null;
  task_title: string | null;
  task_goal: string | null;
  version_id: string;
  memory_id: string;
  subject_key: string;
  value: string;
  origin: string;
  text: string;
  evidence_ids: string[];
  created_at: Date;
};

export type EpisodeFilter = {
  workspaceId: string;
  userId: string;
  /** Only the phases of this task. */
  taskId?: string | null;
  /** Phases whose day overlaps [from, to). */
  from?: Date | null;
  to?: Date | null;
  /** Exact subject key, or a prefix ending in "." (LIKE wildcards in it match literally). */
  subject?: string | null;
  /** Leave out a sentence whose version a correction replaced (the next version rests on a NOTE). */
  excludeCorrected?: boolean;
  /** Newest first: phase day, then when the sentence was written, then id. */
  limit: number;
  offset?: number;
};

/**
 * Episode sentences matching the structured filters, newest first. Invariants: another user's
 * summaries never match; a sentence resting on a FORGOTTEN version or on a REVOKED source is never
 * returned, even if a forget had not deleted it (forget.ts deletes them; this is the second lock).
 * Every value is a bind parameter.
 *
 * It runs for every step (the worker's memory context, within its timeout), so it is shaped to
 * read little:
 *   - the phase's day and task are read once per summary (the CTE), not per sentence, and without
 *     regular expressions with capture groups, which PostgreSQL runs tens of microseconds per row:
 *     `\d{4}-\d{2}-\d{2}$` matches what `(\d{4}-\d{2}-\d{2})$` captured, and a task's id is the 36
 *     characters after "task:" when a ":" follows them (a task id is only [0-9a-f-], so the join
 *     matches exactly the keys `^task:([0-9a-f-]{36}):` did);
 *   - the sentences are read summary by summary (memory_summary_sentences (summary_id, …); OFFSET 0
 *     keeps the planner from turning it into a scan of every workspace's sentences, which it
 *     prefers while the table is small), so the cost follows this user's phases, not the database;
 *   - the user's sentences are ordered first (sentences and summaries only, no lookups), and the
 *     per-sentence checks (version, memory, revoked sources, corrections) run in that order until
 *     the page is full, instead of on every sentence of the user before a sort;
 *   - a current version (no valid_to) has no later version a correction could have written, so
 *     the correction check runs only for the others.
 */
export function episodeCandidates(db: Db, f: EpisodeFilter): Promise<EpisodeRow[]> {
  const params: unknown[] = [f.workspaceId, f.userId];
  const p = (v: unknown) => `$${params.push(v)}`;
  const phases = [`s.workspace_id = $1::uuid`, `s.user_id = $2::uuid`];
  if (f.taskId) phases.push(`s.phase_key LIKE ${p(`task:${f.taskId}:%`)}`);
  const days: string[] = [];
  if (f.from) days.push(`s.day + interval '1 day' > ${p(f.from)}::timestamptz`);
  if (f.to) days.push(`s.day < ${p(f.to)}::timestamptz`);
  const where = [
    `v.status <> 'FORGOTTEN'`,
    `NOT EXISTS (SELECT 1 FROM memory_evidence e WHERE e.id = ANY(o.evidence_ids) AND e.status <> 'ACTIVE')`,
  ];
  if (f.excludeCorrected) {
    // normalizeChain ends a version where the next live one begins.
    where.push(`(v.valid_to IS NULL OR NOT EXISTS (SELECT 1 FROM memory_versions nv JOIN memory_links nl ON nl.version_id = nv.id JOIN memory_evidence ne ON ne.id = nl.evidence_id
       WHERE nv.memory_id = v.memory_id AND nv.status <> 'FORGOTTEN' AND nv.valid_from = v.valid_to AND ne.kind = 'NOTE'))`);
  }
  if (f.subject) where.push(f.subject.endsWith('.') ? `m.subject_key LIKE ${p(`${f.subject.replace(/[\\%_]/g, '\\$&')}%`)}` : `m.subject_key = ${p(f.subject)}`);
  // Straight to the pool (rawQuery): the query engine's per-row work cost more than the statement.
  return rawQuery<EpisodeRow>(
    db,
    `WITH s AS MATERIALIZED (
       SELECT s.id, s.phase_key, s.workspace_id,
              CASE WHEN left(s.phase_key, 5) = 'task:' AND substr(s.phase_key, 42, 1) = ':' THEN substr(s.phase_key, 6, 36) END AS task_key,
              (substring(s.phase_key FROM '\\d{4}-\\d{2}-\\d{2}$')::date)::timestamp AT TIME ZONE 'UTC' AS day
         FROM memory_summaries s
        WHERE ${phases.join(' AND ')})
     SELECT o.sentence_id, o.summary_id, o.phase_key, o.day, t.id AS task_id, t.title AS task_title, t.goal AS task_goal,
            v.id AS version_id, m.id AS memory_id, m.subject_key, v.value, v.origin::text AS origin, o.text, o.evidence_ids, o.created_at
       FROM (SELECT x.id AS sentence_id, s.id AS summary_id, s.phase_key, s.workspace_id, s.task_key, s.day, x.version_id, x.text, x.evidence_ids, x.created_at
               FROM s CROSS JOIN LATERAL (SELECT * FROM memory_summary_sentences x WHERE x.summary_id = s.id OFFSET 0) x
              ${days.length ? `WHERE ${days.join(' AND ')}` : ''}
              ORDER BY s.day DESC, x.created_at DESC, x.id DESC) o
       JOIN memory_versions v ON v.id = o.version_id
       JOIN memories m ON m.id = v.memory_id
       LEFT JOIN tasks t ON t.id::text = o.task_key AND t.workspace_id = o.workspace_id
      WHERE ${where.join(' AND ')}
      ORDER BY o.day DESC, o.created_at DESC, o.sentence_id DESC
      LIMIT ${p(f.limit)} OFFSET ${p(f.offset ?? 0)}`,
    params,
  );
}
