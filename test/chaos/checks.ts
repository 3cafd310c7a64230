// The invariants of a chaos run, from the database alone. Each check returns how many things it
// looked at and what violated it; run.ts prints them and exits 1 on any violation.
import type pg from 'pg';
import { REPLY_LANGUAGES, textsFor } from '../../server/domain/replies/texts.ts';

/** The offline model's plan kinds (server/runtime/models/offline/classify.ts). */
const PLAN_KINDS = ['poster-series', 'image', 'image-to-video', 'audio', '3d', 'video', 'storyboard', 'document'] as const;

export type Check = { name: string; checked: number; violations: string[] };
const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'];
const FINAL_JOB = ['SUCCEEDED', 'FAILED', 'CANCELLED'];

/** What the person did, to compare with what the database holds. */
export type Expected = { userMessages: number; tasks: number; asked: { taskId: string; plan: string }[] };

export async function runChecks(db: pg.Pool, ws: string, expected: Expected): Promise<Check[]> {
  const q = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = [ws]) => (await db.query<T>(sql, params)).rows;
  const checks: Check[] = [];
  const check = (name: string, checked: number, violations: string[]) => checks.push({ name, checked, violations });

  // 1. One terminal state per task, and the task row agrees with it.
  const tasks = await q<{ id: string; status: string; title: string; ends: string[] }>(
    `SELECT t.id, t.status::text AS status, t.title,
            ARRAY(SELECT COALESCE(e.payload, p.body)->>'to' FROM task_events e LEFT JOIN event_payloads p ON p.hash = e.payload_hash
                   WHERE e.task_id = t.id AND e.type = 'TASK_STATUS_CHANGED'
                     AND COALESCE(e.payload, p.body)->>'to' = ANY($2::text[]) ORDER BY e.seq) AS ends
       FROM tasks t WHERE t.workspace_id = $1::uuid ORDER BY t.created_at`,
    [ws, TERMINAL],
  );
  const stuck = tasks.filter((t) => !TERMINAL.includes(t.status));
  const v1: string[] = [];
  for (const t of stuck) v1.push(`stuck ${t.status}: task ${t.id} "${t.title}"\n${await describeTask(db, t.id)}`);
  for (const t of tasks.filter((x) => TERMINAL.includes(x.status))) {
    if (t.ends.length !== 1 || t.ends[0] !== t.status) v1.push(`task ${t.id} is ${t.status} with terminal events [${t.ends.join(', ')}]`);
  }
  check('every task has exactly one terminal TASK_STATUS_CHANGED (none stuck)', tasks.length, v1);

  // 1b. Nothing runs after the end, and a completed task finished its checklist.
  const after = await q<{ task_id: string; type: string; n: number }>(
    `SELECT e.task_id, e.type, count(*)::int AS n FROM task_events e
       JOIN LATERAL (SELECT min(x.seq) AS seq FROM task_events x LEFT JOIN event_payloads p ON p.hash = x.payload_hash
                      WHERE x.task_id = e.task_id AND x.type = 'TASK_STATUS_CHANGED' AND COALESCE(x.payload, p.body)->>'to' = ANY($2::text[])) t ON true
      WHERE e.workspace_id = $1::uuid AND e.seq > t.seq AND e.type IN ('TURN_STARTED', 'STEP_DECIDED', 'MODEL_CALL', 'TOOL_CALL_STARTED')
      GROUP BY 1, 2`,
    [ws, TERMINAL],
  );
  const open = await q<{ id: string; items: { title: string; status: string }[] }>(
    `SELECT t.id, c.items FROM tasks t JOIN task_checklists c ON c.task_id = t.id AND c.version = t.checklist_version
      WHERE t.workspace_id = $1::uuid AND t.status = 'COMPLETED'
        AND EXISTS (SELECT 1 FROM jsonb_array_elements(c.items) i WHERE i->>'status' NOT IN ('DONE', 'SKIPPED'))`,
  );
  check('no turn, step or call after a task ended; completed tasks finished their checklist', tasks.length, [
    ...after.map((a) => `task ${a.task_id}: ${a.n} × ${a.type} after its terminal state`),
    ...open.map((o) => `task ${o.id} COMPLETED with open steps: ${o.items.filter((i) => i.status !== 'DONE' && i.status !== 'SKIPPED').map((i) => `${i.title}=${i.status}`).join(', ')}`),
  ]);

  // 1c. Retried requests made nothing twice: one message per sendMessage key, one task per request.
  const msgs = (await q<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1::uuid AND role = 'USER'`))[0]!.n;
  const v1c: string[] = [];
  if (msgs !== expected.userMessages) v1c.push(`${msgs} user messages stored for ${expected.userMessages} sendMessage requests`);
  if (tasks.length !== expected.tasks) v1c.push(`${tasks.length} tasks stored; the person's requests led to ${expected.tasks}`);
  check('one message per sendMessage request, one task per request that made one', expected.userMessages + expected.tasks, v1c);

  // 1d. Each task does the work it was asked for: the offline model plans every kind the person asks
  // for, so a task's first plan is of the kind requested (a next round of an ended task plans only
  // what its request changes: any plan). Only a task cancelled early may have none.
  // The offline model states its plan's kind in the task's language ("offline plan (poster-series)",
  // "Offline-Plan (Plakatserie)"): the reason is read back in each language.
  const planOf = (reason: string | null): string | null => {
    if (!reason) return null;
    for (const l of REPLY_LANGUAGES) for (const k of PLAN_KINDS) if (textsFor(l).offline.planReason(k) === reason) return k;
    return null;
  };
  const planned = new Map(
    (await q<{ id: string; status: string; title: string; reason: string | null; next_round: boolean }>(
      `SELECT t.id, t.status::text AS status, t.title, c.reason, t.previous_round_id IS NOT NULL AS next_round
         FROM tasks t LEFT JOIN task_checklists c ON c.task_id = t.id AND c.version = 1 WHERE t.workspace_id = $1::uuid`,
    )).map((r) => [r.id, { ...r, plan: planOf(r.reason) ?? (r.next_round && r.reason ? 'next round' : null) }]),
  );
  const v1d: string[] = [];
  for (const a of expected.asked) {
    const t = planned.get(a.taskId);
    if (!t) continue;
    if (t.plan === null && t.status !== 'CANCELLED') v1d.push(`task ${t.id} "${t.title}" (${t.status}) asked for ${a.plan}: no plan`);
    else if (t.plan !== null && t.plan !== a.plan && !t.next_round) v1d.push(`task ${t.id} "${t.title}" asked for ${a.plan}: planned ${t.plan}`);
  }
  check('every task planned the work asked for', expected.asked.length, v1d);

  // 2. Per-task seq gap-free 1..n, matching tasks.last_event_seq.
  const seqs = await q<{ id: string; n: number; lo: number | null; hi: number | null; last: number }>(
    `SELECT t.id, count(e.seq)::int AS n, min(e.seq) AS lo, max(e.seq) AS hi, t.last_event_seq AS last
       FROM tasks t LEFT JOIN task_events e ON e.task_id = t.id WHERE t.workspace_id = $1::uuid GROUP BY t.id`,
  );
  check(
    'per-task seq gap-free 1..n',
    seqs.length,
    seqs.filter((s) => s.n === 0 || s.lo !== 1 || s.hi !== s.n || s.last !== s.n).map((s) => `task ${s.id}: ${s.n} events, seq ${s.lo}..${s.hi}, last_event_seq ${s.last}`),
  );

  // 3. Workspace positions: 1..n without gap or duplicate, and each task's seq in position order.
  const pos = (await q<{ n: number; distinct: number; lo: string; hi: string; head: string }>(
    `SELECT count(*)::int AS n, count(DISTINCT position)::int AS distinct, min(position)::text AS lo, max(position)::text AS hi,
            (SELECT event_position::text FROM workspaces WHERE id = $1::uuid) AS head
       FROM task_events WHERE workspace_id = $1::uuid`,
  ))[0]!;
  const disorder = await q<{ task_id: string; n: number }>(
    `SELECT task_id, count(*)::int AS n FROM (
       SELECT task_id, seq, row_number() OVER (PARTITION BY task_id ORDER BY position) AS rn FROM task_events WHERE workspace_id = $1::uuid) x
      WHERE seq <> rn GROUP BY task_id`,
  );
  const v3 = disorder.map((d) => `task ${d.task_id}: ${d.n} events whose seq order differs from their position order`);
  if (pos.n !== pos.distinct || Number(pos.lo) !== 1 || Number(pos.hi) !== pos.n || pos.head !== pos.hi) v3.push(`positions: ${pos.n} events, ${pos.distinct} distinct, ${pos.lo}..${pos.hi}, head ${pos.head}`);
  check('workspace positions strictly increasing, gap-free, no duplicate', pos.n, v3);

  // 4. Every generation job final.
  const jobs = await q<{ id: string; task_id: string; status: string; kind: string; updated_at: Date }>(
    `SELECT id, task_id, status::text AS status, kind::text AS kind, updated_at FROM generation_jobs WHERE workspace_id = $1::uuid`,
  );
  check(
    'every generation job final (SUCCEEDED/FAILED/CANCELLED)',
    jobs.length,
    jobs.filter((j) => !FINAL_JOB.includes(j.status)).map((j) => `job ${j.id} (${j.kind}, task ${j.task_id}) is ${j.status} since ${j.updated_at.toISOString()}`),
  );

  // 5. Money: per job one hold, settled once, hold = charge + release; nothing outstanding.
  const money = await q<{ id: string; status: string; holds: number; charges: number; releases: number; hold: number; charge: number; release: number }>(
    `SELECT j.id, j.status::text AS status,
            count(*) FILTER (WHERE l.kind = 'HOLD')::int AS holds, count(*) FILTER (WHERE l.kind = 'CHARGE')::int AS charges,
            count(*) FILTER (WHERE l.kind = 'RELEASE')::int AS releases,
            COALESCE(sum(l.amount_cents) FILTER (WHERE l.kind = 'HOLD'), 0)::int AS hold,
            COALESCE(sum(l.amount_cents) FILTER (WHERE l.kind = 'CHARGE'), 0)::int AS charge,
            COALESCE(sum(l.amount_cents) FILTER (WHERE l.kind = 'RELEASE'), 0)::int AS release
       FROM generation_jobs j LEFT JOIN ledger_entries l ON l.job_id = j.id WHERE j.workspace_id = $1::uuid GROUP BY j.id`,
  );
  const v5: string[] = [];
  for (const m of money) {
    const bad =
      m.holds !== 1 || m.charges > 1 || m.releases > 1 || m.hold !== m.charge + m.release ||
      (m.status === 'SUCCEEDED' && (m.charges !== 1 || m.releases !== 0)) ||
      ((m.status === 'FAILED' || m.status === 'CANCELLED') && (m.charges !== 0 || m.releases !== 1));
    if (bad) v5.push(`job ${m.id} ${m.status}: ${m.holds} hold(s) ${m.hold}¢, ${m.charges} charge(s) ${m.charge}¢, ${m.releases} release(s) ${m.release}¢`);
  }
  const orphan = await q<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_entries l WHERE l.workspace_id = $1::uuid AND NOT EXISTS (SELECT 1 FROM generation_jobs j WHERE j.id = l.job_id)`);
  if (orphan[0]!.n) v5.push(`${orphan[0]!.n} ledger entries without their job`);
  const out = (await q<{ held: number }>(
    `SELECT COALESCE(sum(CASE kind WHEN 'HOLD' THEN amount_cents ELSE -amount_cents END), 0)::int AS held FROM ledger_entries WHERE workspace_id = $1::uuid`,
  ))[0]!.held;
  if (out !== 0) v5.push(`outstanding money: SUM(hold) - SUM(charge) - SUM(release) = ${out}¢`);
  check('ledger balanced per job (hold = charge + release, one settlement), nothing outstanding', money.length, v5);

  // 6. No duplicate effects: one job per key; per checklist step and round no more successes than
  // its count; at most one object per job (and the object of each success).
  const v6: string[] = [];
  for (const d of await q<{ k: string; n: number }>(`SELECT idempotency_key AS k, count(*)::int AS n FROM generation_jobs WHERE workspace_id = $1::uuid GROUP BY 1 HAVING count(*) > 1`)) {
    v6.push(`${d.n} jobs with the key ${d.k}`);
  }
  const steps = await q<{ task_id: string; item: string; round: number; n: number; counts: number[]; jobs: string[] }>(
    `WITH s AS (
       SELECT j.task_id, j.params->>'checklistItemId' AS item, COALESCE((j.params->>'checklistRound')::int, 0) AS round, count(*)::int AS n,
              array_agg(j.id::text) AS jobs
         FROM generation_jobs j WHERE j.workspace_id = $1::uuid AND j.status = 'SUCCEEDED' AND j.params ? 'checklistItemId' GROUP BY 1, 2, 3)
     SELECT s.*, ARRAY(SELECT COALESCE((i->>'count')::int, 1) FROM task_checklists c, jsonb_array_elements(c.items) i
                        WHERE c.task_id = s.task_id AND i->>'id' = s.item) AS counts
       FROM s`,
  );
  for (const s of steps) {
    const count = Math.max(0, ...s.counts);
    if (s.n > count) v6.push(`task ${s.task_id} step ${s.item} round ${s.round}: ${s.n} succeeded jobs for a count of ${count} (${s.jobs.join(', ')})`);
  }
  for (const d of await q<{ job: string; n: number }>(
    `SELECT content->'provenance'->>'jobId' AS job, count(DISTINCT object_id)::int AS n FROM object_versions
      WHERE workspace_id = $1::uuid AND content->'provenance' ? 'jobId' GROUP BY 1 HAVING count(DISTINCT object_id) > 1`,
  )) {
    v6.push(`job ${d.job} has ${d.n} workspace objects`);
  }
  for (const d of await q<{ id: string }>(
    `SELECT j.id FROM generation_jobs j WHERE j.workspace_id = $1::uuid AND j.status = 'SUCCEEDED'
        AND NOT EXISTS (SELECT 1 FROM object_versions v WHERE v.workspace_id = j.workspace_id AND v.content->'provenance'->>'jobId' = j.id::text)`,
  )) {
    v6.push(`succeeded job ${d.id} has no workspace object`);
  }
  check('no duplicate effects (one job per key, ≤ count successes per step and round, one object per job)', jobs.length + steps.length, v6);

  // 7. Every approval resolved or cancelled.
  const approvals = await q<{ id: string; kind: string; status: string; task_id: string | null; title: string; created_at: Date }>(
    `SELECT id, kind::text AS kind, status::text AS status, task_id, title, created_at FROM approvals WHERE workspace_id = $1::uuid`,
  );
  check(
    'every approval resolved or cancelled',
    approvals.length,
    approvals.filter((a) => a.status === 'PENDING').map((a) => `approval ${a.id} (${a.kind} "${a.title}", task ${a.task_id}) pending since ${a.created_at.toISOString()}`),
  );

  // 8. No turn left live once every task has ended.
  const turns = await q<{ id: string; task_id: string; status: string; number: number; generation: number; lease_owner: string | null }>(
    `SELECT u.id, u.task_id, u.status::text AS status, u.number, u.generation, u.lease_owner FROM turns u
      WHERE u.workspace_id = $1::uuid AND u.status IN ('QUEUED', 'RUNNING')`,
  );
  const allTurns = (await q<{ n: number }>(`SELECT count(*)::int AS n FROM turns WHERE workspace_id = $1::uuid`))[0]!.n;
  check('no turn left QUEUED or RUNNING', allTurns, turns.map((t) => `turn ${t.number} of task ${t.task_id}: ${t.status} (generation ${t.generation}, lease ${t.lease_owner})`));
  return checks;
}

/** The last events, turns, jobs and open cards of a task: what a person debugging it reads first. */
export async function describeTask(db: pg.Pool, taskId: string): Promise<string> {
  const ev = (
    await db.query<{ seq: number; type: string; at: Date; actor: string; p: unknown }>(
      `SELECT e.seq, e.type, e.occurred_at AS at, e.actor_kind::text AS actor, COALESCE(e.payload, p.body) AS p
         FROM task_events e LEFT JOIN event_payloads p ON p.hash = e.payload_hash WHERE e.task_id = $1 ORDER BY e.seq DESC LIMIT 12`,
      [taskId],
    )
  ).rows.reverse();
  const turns = (await db.query(`SELECT number, status, generation, lease_owner, outcome FROM turns WHERE task_id = $1 ORDER BY number DESC LIMIT 4`, [taskId])).rows;
  const jobs = (await db.query(`SELECT id, kind, status, progress FROM generation_jobs WHERE task_id = $1 AND status NOT IN ('SUCCEEDED', 'FAILED', 'CANCELLED')`, [taskId])).rows;
  const cards = (await db.query(`SELECT id, kind, status FROM approvals WHERE task_id = $1 AND status = 'PENDING'`, [taskId])).rows;
  const inbox = (await db.query(`SELECT kind, signal, consumed_at IS NOT NULL AS consumed FROM inbox_items WHERE task_id = $1 AND consumed_at IS NULL`, [taskId])).rows;
  return [
    ...ev.map((e) => `    #${e.seq} ${e.at.toISOString()} ${e.type} (${e.actor}) ${JSON.stringify(e.p).slice(0, 220)}`),
    `    turns: ${JSON.stringify(turns)}`,
    `    open jobs: ${JSON.stringify(jobs)}; pending cards: ${JSON.stringify(cards)}; unread inbox: ${JSON.stringify(inbox)}`,
  ].join('\n');
}
