// Statements on memories (one chain per workspace, scope, subject and origin), their versions and
// the phase summaries that mention them. Scope isolation is part of every read: the workspace's
// workspace and task rows, and only the asking user's user rows.
import { rawQuery, type Db, type Tx } from '../../db/client.ts';
import { MemoryKind, MemoryScope } from '../../db/generated/client.ts';

/**
 * Locks a memory's row. Invariant: every writer of a chain (extraction, correction, forget) holds
 * this lock while it reads the chain and adds or clears versions, so version numbers stay unique
 * and the validity intervals are recomputed from a chain nobody else is changing.
 */
export function lockMemory(tx: Tx, memoryId: string): Promise<number> {
  return tx.$executeRawUnsafe(`SELECT id FROM memories WHERE id = $1::uuid FOR UPDATE`, memoryId);
}

/**
 * Deletes the workspace's phase summaries that have no sentence left. Invariant: a summary exists
 * only while it says something; after a forget removed its last sentence, nothing of it remains.
 */
export function deleteEmptySummaries(tx: Tx, workspaceId: string): Promise<number> {
  return tx.$executeRawUnsafe(
    `DELETE FROM memory_summaries s WHERE s.workspace_id = $1::uuid AND NOT EXISTS (SELECT 1 FROM memory_summary_sentences x WHERE x.summary_id = s.id)`,
    workspaceId,
  );
}

export type MemoryListing = {
  workspaceId: string;
  viewerId: string;
  kind?: string | null;
  scope?: string | null;
  /** Exact subject key, or a prefix ending in "." (LIKE wildcards in it match literally). */
  subject?: string | null;
  /** Lower-case words that must all occur as word prefixes in a matching version's content. */
  words: string[];
  includeSuperseded: boolean;
  /** Keyset bounds over (created_at, id): `after` towards older memories, `before` towards newer. */
  after?: { createdAt: Date; id: string } | null;
  before?: { createdAt: Date; id: string } | null;
  limit: number;
  /** Oldest first (for `last`), else newest first. */
  ascending: boolean;
};

/**
 * One page of memory ids of a workspace. Invariants: another user's USER memories never match; a
 * memory matches only through a live version (CURRENT, or any not FORGOTTEN with
 * `includeSuperseded`), so a memory forgotten entirely is never listed; without
 * `includeSuperseded` an inference shadowed by a current stated memory on the same subject and
 * scope is left out, as at retrieval. Every value is a bind parameter.
 */
export function memoryIdsPage(db: Db, f: MemoryListing): Promise<{ id: string }[]> {
  const params: unknown[] = [f.workspaceId, f.viewerId];
  const p = (v: unknown) => `$${params.push(v)}`;
  const where = [`m.workspace_id = $1::uuid`, `(m.scope <> 'USER' OR m.user_id = $2::uuid)`];
  const versionWhere = [`v.memory_id = m.id`, f.includeSuperseded ? `v.status <> 'FORGOTTEN'` : `v.status = 'CURRENT'`];
  if (f.kind) where.push(`m.kind::text = ${p(f.kind)}`);
  if (f.scope) where.push(`m.scope::text = ${p(f.scope)}`);
  if (f.subject) where.push(f.subject.endsWith('.') ? `m.subject_key LIKE ${p(`${f.subject.replace(/[\\%_]/g, '\\$&')}%`)}` : `m.subject_key = ${p(f.subject)}`);
  if (f.words.length) versionWhere.push(`v.search_tsv @@ to_tsquery('simple', ${p(f.words.map((w) => `${w.replace(/'/g, "''")}:*`).join(' & '))})`);
  where.push(`EXISTS (SELECT 1 FROM memory_versions v WHERE ${versionWhere.join(' AND ')})`);
  if (!f.includeSuperseded) {
    where.push(`NOT (m.origin = 'INFERRED' AND EXISTS (
      SELECT 1 FROM memories s JOIN memory_versions sv ON sv.memory_id = s.id AND sv.status = 'CURRENT'
       WHERE s.workspace_id = m.workspace_id AND s.scope_key = m.scope_key AND s.subject_key = m.subject_key AND s.origin = 'USER_STATED'))`);
  }
  if (f.after) where.push(`(m.created_at, m.id) < (${p(f.after.createdAt)}::timestamptz, ${p(f.after.id)}::uuid)`);
  if (f.before) where.push(`(m.created_at, m.id) > (${p(f.before.createdAt)}::timestamptz, ${p(f.before.id)}::uuid)`);
  const dir = f.ascending ? 'ASC' : 'DESC';
  return db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT m.id FROM memories m WHERE ${where.join(' AND ')} ORDER BY m.created_at ${dir}, m.id ${dir} LIMIT ${p(f.limit)}`,
    ...params,
  );
}

export type VersionCandidate = {
  memory_id: string;
  version_id: string;
  kind: string;
  scope: string;
  subject_key: string;
  origin: string;
  content: string;
  value: string;
  confidence: number;
  valid_from: Date;
  valid_to: Date | null;
  score: number;
};

export type VersionFilter = {
  workspaceId: string;
  userId: string;
  taskId: string | null;
  kinds?: string[];
  scopes?: string[];
  /** Exact subject key, or a prefix ending in "." (matched with LIKE). */
  subject?: string;
  /** The versions valid at this time instead of the current ones. */
  asOf?: Date;
  limit: number;
};

const KINDS: ReadonlySet<string> = new Set(Object.values(MemoryKind));
const SCOPES: ReadonlySet<string> = new Set(Object.values(MemoryScope));

/**
 * The versions matching the structured filters, most confident and newest first. Invariants:
 * scope isolation (workspace rows of this workspace, user rows of this user, task rows of this
 * task — nothing else can match) and a FORGOTTEN version is never returned, whatever `asOf`.
 *
 * It runs for every step of every task (the worker's memory context, within its timeout), so the
 * current versions are read in rank order from memory_versions (workspace_id, status, confidence
 * DESC, valid_from DESC), which the LIMIT stops early, instead of sorting the whole workspace:
 * the version's own workspace_id (always its memory's: versions are written with it) is what
 * lets that index serve. Kinds and scopes are compared as the enums they are (a text cast would
 * hide them from the planner's statistics and from memories (workspace_id, kind)); a name that is
 * no kind or scope matches nothing, as it did as text.
 */
export async function versionCandidates(db: Db, q: VersionFilter): Promise<VersionCandidate[]> {
  const params: unknown[] = [q.workspaceId, q.userId, q.taskId];
  const where: string[] = [
    `m.workspace_id = $1::uuid`,
    `v.workspace_id = $1::uuid`,
    `(m.scope = 'WORKSPACE' OR (m.scope = 'USER' AND m.user_id = $2::uuid) OR (m.scope = 'TASK' AND m.task_id = $3::uuid))`,
    `v.status <> 'FORGOTTEN'`,
  ];
  if (q.asOf) {
    params.push(q.asOf);
    where.push(`v.valid_from <= $${params.length} AND (v.valid_to IS NULL OR v.valid_to > $${params.length})`);
  } else where.push(`v.status = 'CURRENT'`);
  if (q.kinds?.length) {
    const kinds = q.kinds.filter((k) => KINDS.has(k));
    if (!kinds.length) return [];
    params.push(kinds);
    where.push(`m.kind = ANY($${params.length}::"MemoryKind"[])`);
  }
  if (q.scopes?.length) {
    const scopes = q.scopes.filter((k) => SCOPES.has(k));
    if (!scopes.length) return [];
    params.push(scopes);
    where.push(`m.scope = ANY($${params.length}::"MemoryScope"[])`);
  }
  if (q.subject) {
    params.push(q.subject.endsWith('.') ? `${q.subject}%` : q.subject);
    where.push(q.subject.endsWith('.') ? `m.subject_key LIKE $${params.length}` : `m.subject_key = $${params.length}`);
  }
  params.push(q.limit);
  // With kinds, the memories of those kinds are read first (memories (workspace_id, kind)) and each
  // one's versions by its id: what that costs depends on how many there are (a workspace's brand
  // rules), not on how far down the ranking they sit, which the rank-order read above would walk
  // through. OFFSET 0 keeps the planner from merging the per-memory read back into a join that
  // scans every version.
  const versions = q.kinds?.length
    ? `memories m CROSS JOIN LATERAL (SELECT * FROM memory_versions v WHERE v.memory_id = m.id OFFSET 0) v`
    : `memory_versions v JOIN memories m ON m.id = v.memory_id`;
  // Straight to the pool (rawQuery): up to 500 rows per step, and the query engine's per-row work
  // cost more than the statement itself.
  return rawQuery<VersionCandidate>(
    db,
    `SELECT m.id AS memory_id, v.id AS version_id, m.kind::text AS kind, m.scope::text AS scope, m.subject_key, v.origin::text AS origin,
            v.content, v.value, v.confidence, v.valid_from, v.valid_to, 0::float8 AS score
       FROM ${versions}
      WHERE ${where.join(' AND ')}
      ORDER BY v.confidence DESC, v.valid_from DESC
      LIMIT $${params.length}`,
    params,
  );
}
