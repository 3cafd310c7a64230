// A workspace with a large long-term memory, written in bulk with SQL (generate_series), for the
// memory retrieval benchmark (./retrieval.ts) and for reading query plans by hand. What it holds
// mirrors what extraction, correction and forgetting leave behind after months of use:
//   - several users (the owner and four members), each with their own USER memories, beside
//     WORKSPACE memories everyone shares and TASK memories of a few dozen tasks;
//   - every kind (preferences, facts, habits, ~5% brand rules), stated and ~14% inferred;
//   - chains of 1–3 versions (older ones SUPERSEDED, each closed where the next begins), ~4% of the
//     memories forgotten entirely (every version FORGOTTEN, content cleared, evidence REVOKED);
//   - one evidence row per version (a message), linked ORIGIN;
//   - episodes: phase summaries per task and day with a sentence per version they rest on;
//   - a profile snapshot per user and the memory_uses earlier steps recorded.
// Values and content are drawn from word lists (colours, fonts, places, styles, tools), so a task's
// title meets some memories by a shared word and most not at all, as in real use.
import pg from 'pg';

export type SeededMemory = {
  workspaceId: string;
  /** The users with memories in the workspace (the owner first). */
  userIds: string[];
  /** Tasks created by the users (COMPLETED), whose phases the episodes belong to. */
  taskIds: string[];
  /** Rows written, by table. */
  rows: Record<string, number>;
};

const TOPICS = ['poster', 'video', 'logo', 'banner', 'packaging', 'menu', 'flyer', 'newsletter', 'scene', 'storyboard', 'campaign', 'label'];
const COLOURS = ['terracotta', 'teal', 'ochre', 'navy', 'sage', 'coral', 'charcoal', 'mustard', 'lavender', 'crimson', 'ivory', 'olive'];
const FONTS = ['Futura', 'Garamond', 'Helvetica', 'Inter', 'Bodoni', 'Avenir', 'Caslon', 'Gill Sans'];
const PLACES = ['Berlin', 'Porto', 'Lyon', 'Osaka', 'Valencia', 'Hamburg', 'Bologna', 'Ghent', 'Kraków', 'Seville'];
const STYLES = ['minimal', 'retro', 'hand-drawn', 'photographic', 'flat', 'brutalist', 'watercolour', 'isometric', 'collage', 'grainy'];

/**
 * Seeds `memories` memories into a workspace that exists (its owner is `ownerId`): four more
 * members, `tasks` tasks and everything listed above. One transaction; a few seconds for 10,000.
 */
export async function seedMemoryWorkspace(
  dbUrl: string,
  p: { workspaceId: string; ownerId: string; memories: number; tasks?: number; label?: string },
): Promise<SeededMemory> {
  const nTasks = p.tasks ?? 40;
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    await c.query('BEGIN');
    const label = p.label ?? 'mem';
    const others = await c.query<{ id: string }>(
      `INSERT INTO users (id, email, name)
       SELECT gen_random_uuid(), $1 || '-member-' || g || '-' || substr(md5(random()::text), 1, 6) || '@example.test', 'Member ' || g
         FROM generate_series(1, 4) g RETURNING id`,
      [label],
    );
    const userIds = [p.ownerId, ...others.rows.map((r) => r.id)];
    await c.query(`INSERT INTO memberships (id, workspace_id, user_id, role) SELECT gen_random_uuid(), $1::uuid, u, 'MEMBER' FROM unnest($2::uuid[]) u`, [p.workspaceId, userIds.slice(1)]);
    const tasks = await c.query<{ id: string }>(
      `INSERT INTO tasks (id, workspace_id, created_by_id, title, goal, status, created_at, last_activity_at)
       SELECT gen_random_uuid(), $1::uuid, ($2::uuid[])[1 + g % array_length($2::uuid[], 1)],
              initcap(($3::text[])[1 + g % 12]) || ' for the ' || ($4::text[])[1 + g % 10] || ' launch #' || g,
              'A ' || ($5::text[])[1 + g % 10] || ' ' || ($3::text[])[1 + g % 12] || ' in ' || ($6::text[])[1 + g % 12] || ' tones',
              'COMPLETED', now() - (g || ' days')::interval, now() - (g || ' days')::interval
         FROM generate_series(1, $7::int) g RETURNING id`,
      [p.workspaceId, userIds, TOPICS, PLACES, STYLES, COLOURS, nTasks],
    );
    const taskIds = tasks.rows.map((r) => r.id);
    // The memories: scope, kind and origin cycle at co-prime periods, so every combination occurs.
    await c.query(
      `CREATE TEMP TABLE seed_memories ON COMMIT DROP AS
       SELECT g, gen_random_uuid() AS id,
              ($2::uuid[])[1 + g % 5] AS user_id,
              CASE WHEN g % 10 < 6 THEN 'USER' WHEN g % 10 < 9 THEN 'WORKSPACE' ELSE 'TASK' END AS scope,
              ($3::uuid[])[1 + g % array_length($3::uuid[], 1)] AS task_ref,
              CASE WHEN g % 20 = 0 THEN 'BRAND_RULE' WHEN g % 3 = 0 THEN 'PREFERENCE' WHEN g % 3 = 1 THEN 'FACT' ELSE 'WORKFLOW_HABIT' END AS kind,
              CASE WHEN g % 7 = 0 THEN 'INFERRED' ELSE 'USER_STATED' END AS origin,
              1 + (g % 3 = 0)::int + (g % 11 = 0)::int AS versions,
              g % 25 = 0 AS forgotten,
              now() - ((g % 180) || ' days')::interval - ((g % 1440) || ' minutes')::interval AS created_at
         FROM generate_series(1, $1::int) g`,
      [p.memories, userIds, taskIds],
    );
    const m = await c.query(
      `INSERT INTO memories (id, workspace_id, user_id, task_id, scope, scope_key, kind, subject_key, origin, created_at)
       SELECT id, $1::uuid, user_id, CASE WHEN scope = 'TASK' THEN task_ref END, scope::"MemoryScope",
              CASE scope WHEN 'USER' THEN 'user:' || user_id WHEN 'TASK' THEN 'task:' || task_ref ELSE 'workspace' END,
              kind::"MemoryKind",
              CASE kind WHEN 'BRAND_RULE' THEN 'brand.' WHEN 'PREFERENCE' THEN 'preference.' WHEN 'FACT' THEN 'fact.' ELSE 'habit.' END
                || ($2::text[])[1 + g % 12] || '_' || g,
              origin::"MemoryOrigin", created_at
         FROM seed_memories`,
      [p.workspaceId, TOPICS],
    );
    // Versions: number n of k; the last is CURRENT, earlier ones SUPERSEDED and closed where the next
    // begins (normalizeChain's shape); a forgotten memory's versions are all FORGOTTEN and empty.
    const v = await c.query(
      `INSERT INTO memory_versions (id, memory_id, workspace_id, number, content, value, origin, confidence, status, valid_from, valid_to, forgotten_at, created_at)
       SELECT gen_random_uuid(), s.id, $1::uuid, n,
              CASE WHEN s.forgotten THEN '' ELSE
                CASE s.kind
                  WHEN 'BRAND_RULE' THEN 'Brand ' || ($2::text[])[1 + (s.g + n) % 12] || ' work uses ' || ($4::text[])[1 + (s.g + n) % 8] || ' and ' || ($3::text[])[1 + (s.g * 7 + n) % 12]
                  WHEN 'PREFERENCE' THEN 'Prefers ' || ($3::text[])[1 + (s.g + n) % 12] || ' ' || ($6::text[])[1 + (s.g + n) % 10] || ' ' || ($2::text[])[1 + s.g % 12] || 's'
                  WHEN 'FACT' THEN 'Works with the ' || ($5::text[])[1 + (s.g + n) % 10] || ' studio on ' || ($2::text[])[1 + s.g % 12] || ' jobs'
                  ELSE 'Reviews every ' || ($2::text[])[1 + s.g % 12] || ' draft ' || ($6::text[])[1 + (s.g + n) % 10] || ' first, then ' || ($3::text[])[1 + (s.g + n) % 12]
                END END,
              CASE WHEN s.forgotten THEN '' ELSE
                CASE s.kind WHEN 'BRAND_RULE' THEN ($4::text[])[1 + (s.g + n) % 8] WHEN 'PREFERENCE' THEN ($3::text[])[1 + (s.g + n) % 12]
                            WHEN 'FACT' THEN ($5::text[])[1 + (s.g + n) % 10] ELSE ($6::text[])[1 + (s.g + n) % 10] END END,
              s.origin::"MemoryOrigin",
              CASE WHEN s.origin = 'INFERRED' THEN 0.5 + (s.g % 30) / 100.0 ELSE 0.7 + (s.g % 30) / 100.0 END,
              (CASE WHEN s.forgotten THEN 'FORGOTTEN' WHEN n = s.versions THEN 'CURRENT' ELSE 'SUPERSEDED' END)::"MemoryVersionStatus",
              s.created_at + ((n - 1) || ' days')::interval,
              CASE WHEN n < s.versions THEN s.created_at + (n || ' days')::interval END,
              CASE WHEN s.forgotten THEN s.created_at + (s.versions || ' days')::interval END,
              s.created_at + ((n - 1) || ' days')::interval
         FROM seed_memories s CROSS JOIN LATERAL generate_series(1, s.versions) n`,
      [p.workspaceId, TOPICS, COLOURS, FONTS, PLACES, STYLES],
    );
    // One message per version as its evidence (REVOKED with its text cleared when forgotten).
    const e = await c.query(
      `WITH ev AS (
         INSERT INTO memory_evidence (id, workspace_id, user_id, task_id, message_id, kind, text, content_hash, status, occurred_at, revoked_at, created_at)
         SELECT gen_random_uuid(), $1::uuid, s.user_id, CASE WHEN s.scope = 'TASK' THEN s.task_ref END, gen_random_uuid(), 'MESSAGE',
                CASE WHEN v.status = 'FORGOTTEN' THEN '' ELSE 'Just so you know: ' || lower(v.content) || '.' END,
                md5(v.id::text), (CASE WHEN v.status = 'FORGOTTEN' THEN 'REVOKED' ELSE 'ACTIVE' END)::"MemoryEvidenceStatus",
                v.valid_from, v.forgotten_at, v.valid_from
           FROM memory_versions v JOIN seed_memories s ON s.id = v.memory_id
         RETURNING id, occurred_at, content_hash)
       INSERT INTO memory_links (version_id, evidence_id, role, created_at)
       SELECT v.id, ev.id, 'ORIGIN', ev.occurred_at FROM ev JOIN memory_versions v ON md5(v.id::text) = ev.content_hash`,
      [p.workspaceId],
    );
    // Episodes: a summary per (user, task, day) of the task's phases, a sentence per live version of
    // that user's memories on the task's topic (at most 3,000).
    await c.query(
      `INSERT INTO memory_summaries (id, workspace_id, user_id, phase_key, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, u, 'task:' || t || ':' || to_char((now() - (d || ' days')::interval) AT TIME ZONE 'UTC', 'YYYY-MM-DD'), now() - (d || ' days')::interval, now() - (d || ' days')::interval
         FROM unnest($2::uuid[]) u, unnest($3::uuid[]) WITH ORDINALITY AS tt(t, i), generate_series(0, 2) j, LATERAL (SELECT (i * 3 + j)::int AS d) dd`,
      [p.workspaceId, userIds, taskIds],
    );
    const sentences = await c.query(
      `INSERT INTO memory_summary_sentences (id, summary_id, version_id, evidence_ids, text, created_at)
       SELECT gen_random_uuid(), sm.id, v.id, ARRAY[l.evidence_id], 'The user noted: ' || v.content || '.', v.created_at
         FROM (SELECT v.*, m.user_id, row_number() OVER (ORDER BY v.id) AS r FROM memory_versions v JOIN memories m ON m.id = v.memory_id
                WHERE m.workspace_id = $1::uuid AND v.status <> 'FORGOTTEN') v
         JOIN memory_links l ON l.version_id = v.id
         JOIN LATERAL (SELECT s.id FROM memory_summaries s WHERE s.workspace_id = $1::uuid AND s.user_id = v.user_id
                        ORDER BY s.phase_key OFFSET (v.r % 120) LIMIT 1) sm ON true
        WHERE v.r <= 3000`,
      [p.workspaceId],
    );
    // A profile per user listing some of their current memories.
    await c.query(
      `INSERT INTO memory_profiles (id, workspace_id, user_id, version, entries, text)
       SELECT gen_random_uuid(), $1::uuid, u, 1,
              COALESCE((SELECT jsonb_agg(jsonb_build_object('versionId', v.id, 'kind', m.kind::text, 'subjectKey', m.subject_key, 'text', v.content))
                          FROM (SELECT v.id, v.content, v.memory_id FROM memory_versions v JOIN memories m2 ON m2.id = v.memory_id
                                 WHERE m2.workspace_id = $1::uuid AND m2.user_id = u AND m2.scope = 'USER' AND v.status = 'CURRENT' ORDER BY v.confidence DESC LIMIT 8) v
                          JOIN memories m ON m.id = v.memory_id), '[]'::jsonb),
              'Profile of a user of the workspace'
         FROM unnest($2::uuid[]) u`,
      [p.workspaceId, userIds],
    );
    // What earlier steps of the tasks were shown (every task: 5 steps × 6 versions).
    const uses = await c.query(
      `INSERT INTO memory_uses (id, workspace_id, task_id, step_ordinal, version_id, use_key)
       SELECT gen_random_uuid(), $1::uuid, t, st, v.id, t || ':' || st || ':v:' || v.id
         FROM unnest($2::uuid[]) WITH ORDINALITY AS tt(t, i), generate_series(0, 4) st,
              LATERAL (SELECT id FROM memory_versions WHERE workspace_id = $1::uuid AND status = 'CURRENT' ORDER BY id OFFSET ((i * 37 + st * 11) % 5000) LIMIT 6) v`,
      [p.workspaceId, taskIds],
    );
    await c.query('COMMIT');
    // Fresh statistics, as autovacuum would have them after months of use.
    await c.query('ANALYZE memories, memory_versions, memory_evidence, memory_links, memory_summaries, memory_summary_sentences, memory_profiles, memory_uses, tasks');
    // The seeding's own sequential scans must be counted before the benchmark reads its baseline of
    // scan counts: a backend reports its statistics when idle at most once a second (and one that
    // stays idle, only after seconds), so a late report would land inside the measured window. Force
    // it now: the flag makes the next statement's end report everything pending (PostgreSQL 15+).
    const { rows: [ver] } = await c.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
    if (Number(ver?.v ?? 0) >= 150000) {
      await c.query('SELECT pg_stat_force_next_flush()');
      await c.query('SELECT 1');
    }
    return {
      workspaceId: p.workspaceId,
      userIds,
      taskIds,
      rows: { memories: m.rowCount ?? 0, versions: v.rowCount ?? 0, evidence: e.rowCount ?? 0, sentences: sentences.rowCount ?? 0, uses: uses.rowCount ?? 0 },
    };
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await c.end();
  }
}
