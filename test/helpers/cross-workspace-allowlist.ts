// What may cross workspaces, and why (test/workspace-scoping.test.ts checks every statement the API
// and the worker send against the rule in ./sql-scoping.ts; a statement that touches a
// workspace-scoped table without a workspace key fails the test unless it is listed here).
//
// Why it matters: to spread Atelier over several PostgreSQL nodes by workspace (Citus, distributed
// by workspace_id; server/README.md "Scaling out"), every statement of a request or a turn must go
// to one workspace's node. A statement listed here runs on every node (a per-node sweep) or reads a
// global table; adding one is a design decision, so it needs a line here with its reason.

/**
 * Tables whose rows are not one workspace's, with the reason. In a distributed PostgreSQL they are
 * reference tables (copied to every node) or stay on the coordinator.
 */
export const GLOBAL_TABLES: Readonly<Record<string, string>> = {
  users: 'a person may belong to several workspaces; read by id at sign-in and to render authors',
  memberships: 'the user → workspaces map, read before any workspace is known (viewer.workspaces, authorisation); has workspace_id but is looked up by user',
  api_tokens: 'a bearer token is resolved by its hash before the workspace is known; has workspace_id but is looked up by hash',
  runtime_processes: 'heartbeats of API and worker processes, which serve every workspace',
  _prisma_migrations: 'migration bookkeeping of the database itself',
};

/**
 * Workspace-scoped tables that lack a workspace_id column: every row belongs to one workspace
 * through its parent (the key column named), and every statement reaches them by that parent key.
 * To distribute by workspace_id each needs the column (and it in its primary key); see the README.
 */
export const SCOPED_WITHOUT_KEY: Readonly<Record<string, string>> = {
  workspaces: 'the workspace itself: its id is the distribution key (distributed by id, co-located)',
  steps: 'child of turns (turn_id, task_id)',
  task_snapshots: 'child of tasks (task_id)',
  task_object_refs: 'child of tasks (task_id, object_id)',
  task_embeddings: 'child of tasks (task_id)',
  task_checklists: 'child of tasks (task_id)',
  task_object_seen: 'child of tasks (task_id, object_id)',
  context_summaries: 'child of tasks (task_id)',
  memory_links: 'child of memory_versions and memory_evidence (version_id, evidence_id)',
  memory_embeddings: 'child of memory_versions (version_id)',
  memory_summary_sentences: 'child of memory_summaries (summary_id)',
  memory_extractions: 'child of memory_evidence (evidence_id)',
  schedule_runs: 'child of schedules (schedule_id)',
  event_payloads:
    'large event payloads, stored once per SHA-256 across ALL workspaces (content-addressed dedup): reached by hash from an event row; must become (workspace_id, hash) to be distributed',
};

/**
 * Columns whose value belongs to exactly one workspace: the workspace key itself, and ids of
 * workspace-scoped rows (a row's own `id`, or a reference to one). Not: user ids (a user spans
 * workspaces), worker ids, content hashes (event_payloads are shared), idempotency keys (unique only
 * within a workspace).
 */
export const KEY_COLUMNS: readonly string[] = [
  'workspace_id', 'id',
  'task_id', 'turn_id', 'step_id', 'object_id', 'job_id', 'thread_id', 'message_id', 'inbox_item_id',
  'memory_id', 'version_id', 'evidence_id', 'summary_id', 'approval_id', 'card_id',
  'author_task_id', 'consumed_turn_id', 'line_id', 'previous_round_id', 'merged_into_id',
  'sealing_key_id',
  // A provider's job id names one generation job (unique with the provider): callbacks find their job by it.
  'upstream_job_id',
  // A webhook endpoint or delivery belongs to one workspace.
  'endpoint_id', 'delivery_id',
  // A schedule, and one run of it, belong to one workspace.
  'schedule_id', 'schedule_run_id',
];

export type AllowEntry = {
  /** Short name, used in reports. */
  name: string;
  /** Matches the statement's text (whitespace collapsed). */
  match: RegExp;
  /** The workspace-scoped tables (and atelier_* functions) this statement may touch without a key. */
  tables: readonly string[];
  /** Why it crosses workspaces, and how it would run when distributed. */
  reason: string;
};

export const CROSS_WORKSPACE_ALLOWLIST: readonly AllowEntry[] = [
  // ---- the watchdog (server/runtime/watchdog.ts, statements in server/store/journal/recovery.ts) ----
  {
    name: 'watchdog: expired leases',
    match: /^UPDATE turns SET enqueued_at = now\(\) WHERE id IN \(SELECT id FROM turns WHERE status = 'RUNNING' AND lease_expires_at < now\(\)/,
    tables: ['turns'],
    reason: 'finds turns whose worker died, in every workspace, so any worker can take them over; distributed: the same sweep on each node (turns co-located by workspace)',
  },
  {
    name: 'watchdog: stale queued turns',
    match: /^UPDATE turns SET enqueued_at = now\(\) WHERE id IN \(SELECT id FROM turns WHERE status = 'QUEUED' AND enqueued_at < now\(\)/,
    tables: ['turns'],
    reason: 'finds queued turns whose wake-up was lost, in every workspace; distributed: a per-node sweep',
  },
  {
    name: 'watchdog: unread inbox without a turn',
    match: /^SELECT k\.id, k\.workspace_id FROM tasks k WHERE k\.status IN \('QUEUED', 'RUNNING', 'WAITING'\) AND EXISTS \(SELECT 1 FROM inbox_items i WHERE i\.task_id = k\.id/,
    tables: ['tasks'],
    reason: 'finds runnable tasks with unread inbox items and no live turn, in every workspace; distributed: a per-node sweep (tasks, inbox_items and turns co-located)',
  },
  // ---- job reconciliation (server/generation/reconcile.ts, statements in server/store/generation-jobs.ts) ----
  {
    name: 'reconcile: unwanted jobs',
    match: /^SELECT j\.id, j\.task_id, j\.status, j\.upstream_job_id, j\.idempotency_key FROM generation_jobs j JOIN tasks k ON k\.id = j\.task_id LEFT JOIN task_checklists c ON c\.task_id = k\.id/,
    tables: ['generation_jobs', 'tasks', 'task_checklists'],
    reason: 'live jobs of cancelled tasks or re-opened steps, per provider across workspaces, so held money is released; distributed: a per-node sweep (the join stays on one node once task_checklists carries workspace_id)',
  },
  {
    name: 'reconcile: silent jobs',
    match: /^SELECT .* FROM "public"\."generation_jobs" WHERE \("public"\."generation_jobs"\."provider" = \$1 AND "public"\."generation_jobs"\."status" IN \(CAST\(\$2::text AS "public"\."JobStatus"\),CAST\(\$3::text AS "public"\."JobStatus"\)\) AND "public"\."generation_jobs"\."last_seen_at" < \$4\) ORDER BY "public"\."generation_jobs"\."id" ASC LIMIT \$5 OFFSET \$6$/,
    tables: ['generation_jobs'],
    reason: 'running jobs whose callbacks went silent, per provider across workspaces, to poll the provider; distributed: a per-node sweep',
  },
  {
    name: 'reconcile: stuck submissions',
    match: /^SELECT .* FROM "public"\."generation_jobs" WHERE \("public"\."generation_jobs"\."provider" = \$1 AND "public"\."generation_jobs"\."status" = CAST\(\$2::text AS "public"\."JobStatus"\) AND "public"\."generation_jobs"\."created_at" < \$3\) ORDER BY "public"\."generation_jobs"\."id" ASC LIMIT \$4 OFFSET \$5$/,
    tables: ['generation_jobs'],
    reason: 'orders still SUBMITTING after a lease (their placer died), across workspaces, submitted by their key; distributed: a per-node sweep',
  },
  {
    name: 'reconcile: unknown submissions',
    match: /^SELECT .* FROM "public"\."generation_jobs" WHERE \("public"\."generation_jobs"\."provider" = \$1 AND "public"\."generation_jobs"\."status" = CAST\(\$2::text AS "public"\."JobStatus"\)\) ORDER BY "public"\."generation_jobs"\."id" ASC LIMIT \$3 OFFSET \$4$/,
    tables: ['generation_jobs'],
    reason: 'submissions whose outcome is unknown, across workspaces, looked up at the provider by key; distributed: a per-node sweep',
  },
  {
    name: 'provider callback: the job by its upstream id or our key',
    match: /^SELECT id, task_id, status, progress, upstream_job_id FROM generation_jobs WHERE provider = \$1 AND \(upstream_job_id = \$2 OR \(\$3::text IS NOT NULL AND upstream_job_id IS NULL AND idempotency_key = \$3\)\)/,
    tables: ['generation_jobs'],
    reason: 'a callback names the provider\'s job id, not the workspace; the fallback (a callback before submit() answered) is by idempotency key, unique only per workspace in the schema (a tool call id in practice); distributed: put the workspace id in the callback URL so it routes to one node',
  },
  {
    name: 'MCP settlement: ended tasks with a held call price',
    match: /^SELECT DISTINCT h\.task_id::text FROM ledger_entries h JOIN tasks t ON t\.id = h\.task_id WHERE h\.kind = 'HOLD' AND h\.reason LIKE 'MCP call %'/,
    tables: ['ledger_entries', 'tasks'],
    reason: 'the slow sweep behind the reaction to a task\'s end (runtime/mcp/settle-ended.ts): tasks of every workspace that ended with an MCP call\'s price still held because their process died right after the end; each found task is then settled by keyed statements; distributed: a per-node sweep',
  },
  // ---- the schedule runner (server/services/schedules/run-due.ts, statements in server/store/schedules.ts) ----
  {
    name: 'schedules: claim a due schedule',
    match: /^SELECT id::text AS id FROM schedules WHERE next_run_at <= \$1 AND NOT paused AND deleted_at IS NULL AND id <> ALL\(\$2::uuid\[\]\) ORDER BY next_run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED$/,
    tables: ['schedules'],
    reason: 'the runner finds due schedules of every workspace, one at a time (each run is then made by keyed statements); distributed: a per-node sweep',
  },
  {
    name: 'schedules: runs whose message is unsent',
    match: /^SELECT r\.id::text AS id, r\.schedule_id::text AS schedule_id, r\.slot_at FROM schedule_runs r JOIN schedules s ON s\.id = r\.schedule_id WHERE s\.kind = 'MESSAGE' AND r\.message_id IS NULL/,
    tables: ['schedule_runs', 'schedules'],
    reason: "the runner's safety net: MESSAGE runs of every workspace committed by a runner that stopped before sending (each is then sent by keyed statements); distributed: a per-node sweep (schedule_runs co-located with schedules)",
  },
  // ---- the event channel ----
  {
    name: 'sequencer',
    match: /^SELECT workspace_id::text AS id, head::text AS head FROM atelier_sequence_events\(\$1::uuid\[\]\)$/,
    tables: ['atelier_sequence_events'],
    reason: 'one call sequences the pending events of several workspaces (a process coalesces its flush); inside, each workspace is locked and sequenced on its own, so distributed it becomes one call per workspace (or a function distributed by its argument)',
  },
  // ---- webhooks ----
  {
    name: 'webhook dispatcher: followed workspaces',
    match: /^SELECT workspace_id::text AS workspace_id, min\(event_cursor\)::text AS cursor FROM webhook_endpoints WHERE enabled GROUP BY workspace_id$/,
    tables: ['webhook_endpoints'],
    reason: "the dispatcher's safety poll (services/webhooks/dispatch.ts): which workspaces have an enabled endpoint, so an event whose wake-up was lost is still delivered; distributed: a per-node sweep (each node's endpoints, then one pass per workspace on its node)",
  },
  // ---- follow-ups (server/services/follow-ups/jobs.ts, statements in server/store/follow-ups.ts) ----
  {
    name: 'follow-ups: due wakes without a job',
    match: /^SELECT id, wake_at FROM follow_ups WHERE status = 'PENDING' AND wake_at <= now\(\) ORDER BY wake_at LIMIT \$1::int$/,
    tables: ['follow_ups'],
    reason: 'the sweep that re-sends the wake jobs of pending follow-ups whose time passed (a lost job, a server that was down), in every workspace; each is then woken by keyed statements; distributed: a per-node sweep',
  },
  // ---- upkeep ----
  {
    name: 'retention: prune ended history',
    match: /^WITH victims AS \( SELECT t\.id, t\.workspace_id, s\.seq FROM tasks t JOIN LATERAL \(SELECT max\(ts\.seq\) AS seq FROM task_snapshots ts WHERE ts\.task_id = t\.id\)/,
    tables: ['tasks'],
    reason: 'the retention sweep picks ended tasks of every workspace (the delete itself is keyed by workspace and task); distributed: a per-node sweep',
  },
];
