// Statements on episodic memory: the sentences of phase summaries (one user, one task or the thread,
// one UTC day — `phase_key` is "task:<uuid>:<YYYY-MM-DD>" or "thread:<YYYY-MM-DD>"), with the task
// they belong to and the memory version they rest on. Scope isolation is part of every read: the
// summaries of this workspace and of this user only.
import type { Db } from '../../db/client.ts';

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
 */
export function episodeCandidates(db: Db, f: EpisodeFilter): Promise<EpisodeRow[]> {
  const params: unknown[] = [f.workspaceId, f.userId];
  const p = (v: unknown) => `$${params.push(v)}`;
  const where = [
    `s.workspace_id = $1::uuid`,
    `s.user_id = $2::uuid`,
    `v.status <> 'FORGOTTEN'`,
    `NOT EXISTS (SELECT 1 FROM memory_evidence e WHERE e.id = ANY(x.evidence_ids) AND e.status <> 'ACTIVE')`,
  ];
  if (f.taskId) where.push(`s.phase_key LIKE ${p(`task:${f.taskId}:%`)}`);
  if (f.from) where.push(`d.day + interval '1 day' > ${p(f.from)}::timestamptz`);
  if (f.to) where.push(`d.day < ${p(f.to)}::timestamptz`);
  if (f.excludeCorrected) {
    // normalizeChain ends a version where the next live one begins.
    where.push(`NOT EXISTS (SELECT 1 FROM memory_versions nv JOIN memory_links nl ON nl.version_id = nv.id JOIN memory_evidence ne ON ne.id = nl.evidence_id
       WHERE nv.memory_id = v.memory_id AND nv.status <> 'FORGOTTEN' AND nv.valid_from = v.valid_to AND ne.kind = 'NOTE')`);
  }
  if (f.subject) where.push(f.subject.endsWith('.') ? `m.subject_key LIKE ${p(`${f.subject.replace(/[\\%_]/g, '\\$&')}%`)}` : `m.subject_key = ${p(f.subject)}`);
  return db.$queryRawUnsafe<EpisodeRow[]>(
    `SELECT x.id AS sentence_id, s.id AS summary_id, s.phase_key, d.day, t.id AS task_id, t.title AS task_title, t.goal AS task_goal,
            v.id AS version_id, m.id AS memory_id, m.subject_key, v.value, v.origin::text AS origin, x.text, x.evidence_ids, x.created_at
       FROM memory_summary_sentences x
       JOIN memory_summaries s ON s.id = x.summary_id
       JOIN memory_versions v ON v.id = x.version_id
       JOIN memories m ON m.id = v.memory_id
       CROSS JOIN LATERAL (SELECT (substring(s.phase_key FROM '(\\d{4}-\\d{2}-\\d{2})$')::date)::timestamp AT TIME ZONE 'UTC' AS day) d
       LEFT JOIN tasks t ON t.id::text = substring(s.phase_key FROM '^task:([0-9a-f-]{36}):') AND t.workspace_id = s.workspace_id
      WHERE ${where.join(' AND ')}
      ORDER BY d.day DESC, x.created_at DESC, x.id DESC
      LIMIT ${p(f.limit)} OFFSET ${p(f.offset ?? 0)}`,
    ...params,
  );
}
