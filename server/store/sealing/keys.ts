// Statements on data_keys (crypto-shredding; the design is in server/README.md, "Forgetting what
// was derived"). Invariants:
//  - a task's sealing key covers exactly the memory sources (version and evidence ids) still valid
//    that any step of the task — or of an earlier round of its line, or of a task it was forked
//    from (and of theirs, recursively) — was shown (memory_uses);
//  - one key per (task, source set): refreshing with the same set finds the same key;
//  - a destroyed key is never used again and never comes back (a trigger refuses it), so content
//    sealed under it is unreadable for good.
import { createHash } from 'node:crypto';
import type { Db, Tx } from '../../db/client.ts';
import { newKeyMaterial, type DataKeyMaterial, type KnownKey } from '../../domain/sealing.ts';
import { workspaceOfTask } from '../task-workspace.ts';

type KeyRow = { id: string; material: Buffer | null };

/**
 * The valid memory sources of the task's line up to this round — and, for a fork, of the tasks it
 * was forked from and their earlier rounds (what it inherits was derived there) — as a sorted id
 * list, the key of that set if it exists, and the key the task points at now. The rounds before a
 * round are its previous_round_id chain. A source is valid while its version is not FORGOTTEN and
 * its evidence not REVOKED. The set's hash is computed here exactly as
 * `sourcesHash` computes it, so the common case — nothing changed — is this one read.
 */
const ACTIVE_SOURCES_SQL = `
WITH RECURSIVE me AS (SELECT id, workspace_id, sealing_key_id FROM tasks WHERE id = $1::uuid),
line(id) AS (
  SELECT id FROM me
  UNION
  SELECT p.id FROM line JOIN tasks c ON c.id = line.id JOIN tasks p ON (p.id = c.previous_round_id OR p.id = c.forked_from_id)
   WHERE c.workspace_id = $2::uuid AND p.workspace_id = $2::uuid),
src AS (
  SELECT u.version_id AS id FROM memory_uses u JOIN memory_versions v ON v.id = u.version_id
   WHERE u.task_id IN (SELECT id FROM line) AND v.status <> 'FORGOTTEN'
  UNION
  SELECT u.evidence_id FROM memory_uses u JOIN memory_evidence e ON e.id = u.evidence_id
   WHERE u.task_id IN (SELECT id FROM line) AND e.status = 'ACTIVE'),
s AS (SELECT coalesce((SELECT array_agg(id::text ORDER BY id) FROM src), '{}') AS sources)
SELECT me.workspace_id AS "workspaceId", me.sealing_key_id::text AS "currentId", s.sources, k.id::text AS "keyId", k.material
  FROM me CROSS JOIN s
  LEFT JOIN data_keys k ON k.task_id = me.id
   AND k.sources_hash = encode(sha256(convert_to(array_to_string(s.sources, ','), 'UTF8')), 'hex')`;

const sourcesHash = (sources: string[]) => createHash('sha256').update(sources.join(',')).digest('hex');

/**
 * Makes the task's sealing key match the memory its context has used, and returns it (null when
 * no valid memory was ever in its context: its content is written in the clear). Called by the
 * runtime before each step, after the step's memory section was assembled. Writes only when the
 * source set changed (one read otherwise).
 */
export async function refreshTaskSealingKey(db: Db, taskId: string): Promise<DataKeyMaterial | null> {
  // The task's workspace bounds the walk over its earlier rounds and the tasks it was forked from.
  const workspaceId = await workspaceOfTask(db, taskId);
  if (!workspaceId) return null;
  const [me] = await db.$queryRawUnsafe<{ workspaceId: string; currentId: string | null; sources: string[]; keyId: string | null; material: Buffer | null }[]>(ACTIVE_SOURCES_SQL, taskId, workspaceId);
  if (!me) return null;
  if (!me.sources.length) {
    if (me.currentId) await db.$executeRawUnsafe(`UPDATE tasks SET sealing_key_id = NULL WHERE id = $1::uuid`, taskId);
    return null;
  }
  let key: KeyRow | null = me.keyId ? { id: me.keyId, material: me.material } : null;
  if (!key) {
    const hash = sourcesHash(me.sources);
    // Two writers racing insert one row (unique (task, sources_hash)); the loser reads the winner's.
    [key = null] = await db.$queryRawUnsafe<KeyRow[]>(
      `INSERT INTO data_keys (id, workspace_id, task_id, sources, sources_hash, material)
       VALUES (gen_random_uuid(), $2::uuid, $1::uuid, $3::uuid[], $4, $5)
       ON CONFLICT (task_id, sources_hash) DO NOTHING RETURNING id::text, material`,
      taskId,
      me.workspaceId,
      me.sources,
      hash,
      newKeyMaterial(),
    );
    key ??= (await db.$queryRawUnsafe<KeyRow[]>(`SELECT id::text, material FROM data_keys WHERE task_id = $1::uuid AND sources_hash = $2`, taskId, hash))[0] ?? null;
  }
  if (!key?.material) return null; // destroyed meanwhile by a forgetting: the next step gets a new one
  if (me.currentId !== key.id) await db.$executeRawUnsafe(`UPDATE tasks SET sealing_key_id = $2::uuid WHERE id = $1::uuid`, taskId, key.id);
  return { id: key.id, material: Buffer.from(key.material) };
}

/** The task's current sealing key (null when it has none, or it was destroyed meanwhile). */
export async function taskSealingKey(db: Db, taskId: string): Promise<DataKeyMaterial | null> {
  const [row] = await db.$queryRawUnsafe<KeyRow[]>(
    `SELECT k.id, k.material FROM tasks t JOIN data_keys k ON k.id = t.sealing_key_id WHERE t.id = $1::uuid`,
    taskId,
  );
  return row?.material ? { id: row.id, material: Buffer.from(row.material) } : null;
}

/** Keys by id as readers know them: material, or null with the reason it was destroyed. */
export async function knownKeys(db: Db, ids: Iterable<string>): Promise<Map<string, KnownKey>> {
  const list = [...new Set(ids)];
  if (!list.length) return new Map();
  const rows = await db.$queryRawUnsafe<{ id: string; material: Buffer | null; reason: string | null }[]>(
    `SELECT id::text, material, destroyed_reason AS reason FROM data_keys WHERE id = ANY($1::uuid[])`,
    list,
  );
  return new Map(rows.map((r) => [r.id, { material: r.material ? Buffer.from(r.material) : null, reason: r.reason }]));
}

/**
 * Destroys every key of the workspace whose sources include one of these ids (forgetting), and
 * unpoints the tasks that used them (their next step gets a key of what is still valid). Returns
 * the tasks whose keys were destroyed.
 */
export async function destroyKeysOf(tx: Tx, p: { workspaceId: string; sourceIds: string[]; reason: string }): Promise<string[]> {
  if (!p.sourceIds.length) return [];
  const rows = await tx.$queryRawUnsafe<{ task_id: string }[]>(
    `WITH d AS (
       UPDATE data_keys SET material = NULL, destroyed_at = now(), destroyed_reason = $3
        WHERE workspace_id = $1::uuid AND sources && $2::uuid[] AND material IS NOT NULL
       RETURNING id, task_id),
     t AS (UPDATE tasks SET sealing_key_id = NULL WHERE sealing_key_id IN (SELECT id FROM d))
     SELECT DISTINCT task_id::text FROM d`,
    p.workspaceId,
    p.sourceIds,
    p.reason,
  );
  return rows.map((r) => r.task_id);
}

/** Of these tasks, the ones with a destroyed key (some of their content reads as withheld). */
export async function tasksWithDestroyedKeys(db: Db, taskIds: readonly string[]): Promise<Set<string>> {
  if (!taskIds.length) return new Set();
  const rows = await db.$queryRawUnsafe<{ task_id: string }[]>(
    `SELECT DISTINCT task_id::text FROM data_keys WHERE task_id = ANY($1::uuid[]) AND material IS NULL`,
    [...taskIds],
  );
  return new Set(rows.map((r) => r.task_id));
}
