// Every statement the API and the worker send must stay inside one workspace, except the ones on
// the allow-list (test/helpers/cross-workspace-allowlist.ts) — the precondition for distributing the
// database by workspace_id (server/README.md "Scaling out"). A representative workload runs through
// the real API (HTTP and graphql-ws) and an in-process worker (scripted model, tools, a generation
// job, memory extraction, the watchdog and reconciliation on their timers) in two workspaces, while
// every SQL statement of this process is captured (test/helpers/sql-scoping.ts) and checked.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { runDueSchedules } from '../server/services/schedules/run-due.ts';
import { sweepDueFollowUps } from '../server/services/follow-ups/jobs.ts';
import { fireFollowUp } from '../server/services/follow-ups/wake.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, testConfig, type TestApp } from './helpers/app.ts';
import { collect, gqlOk, toGlobalId, wsClient } from './helpers/clients.ts';
import { CROSS_WORKSPACE_ALLOWLIST, GLOBAL_TABLES, KEY_COLUMNS, SCOPED_WITHOUT_KEY, type AllowEntry } from './helpers/cross-workspace-allowlist.ts';
import { CreateTask, SendMessage, SignalTask, TaskEventsPage, TaskJobs, TaskJournal, TaskQuery, ViewerQuery, WorkspaceEventsSub, WorkspaceTasks, TaskEventsSub } from './helpers/documents.ts';
import { CreateObject, EditDocument, ObjectChanges, ObjectNode, TaskObjects, WorkspaceObjects } from './helpers/object-documents.ts';
import { eventually } from './helpers/produce.ts';
import { analyze, normalizeSql, startCapture, type Captured, type ScopingModel } from './helpers/sql-scoping.ts';

const Memories = graphql(`
  query ScopingMemories($id: ID!) {
    workspace(id: $id) {
      memories(first: 20) { edges { node { id subjectKey value evidence { evidence { id excerpt } } usedBy { task { id } } } } }
      memoryProfile { version text }
    }
  }
`);
const Operations = graphql(`
  query ScopingOperations($id: ID!) {
    viewer { runtime { processes { id kind alive running } } }
    workspace(id: $id) {
      ledgerByDay(days: 7) { day chargedCents }
      approvals(first: 10) { edges { node { id kind status } } }
      settings { autonomy version }
    }
  }
`);

const CreateSchedule = graphql(`
  mutation ScopingCreateSchedule($input: CreateScheduleInput!) { createSchedule(input: $input) { schedule { id nextRunAt } } }
`);

// The scripted agent, several steps per task: a note, a document written, read and edited, then a
// generation that completes the task when its job succeeds (job, ledger hold and charge, asset
// object) — the tables a real turn touches.
type Res = { ok?: boolean; objectId?: string; id?: string; version?: number; object?: { id: string } };
const toolResults = (messages: BaseMessage[]) =>
  messages.filter((m) => m instanceof ToolMessage).map((m) => (JSON.parse(String(m.content)) as { result: Res }).result);
const model = new ScriptedChatModel(({ messages }) => {
  const results = toolResults(messages);
  const docId = () => {
    const r = results[1]!;
    return r.objectId ?? r.object?.id ?? r.id!;
  };
  switch (results.length) {
    case 0:
      return { content: 'noting', toolCalls: [{ name: 'add_note', args: { text: 'starting on the brief' } }] };
    case 1:
      return { content: 'writing the brief', toolCalls: [{ name: 'create_document', args: { name: 'Brief', markdown: '# Goal\nposter\n' } }] };
    case 2:
      return { content: 'reading it back', toolCalls: [{ name: 'read_object', args: { objectId: docId() } }] };
    case 3:
      return { content: 'refining', toolCalls: [{ name: 'edit_document', args: { objectId: docId(), baseVersion: results[2]!.version!, edits: [{ find: 'poster', replace: 'poster, warm light' }] } }] };
    case 4:
      return { content: 'generating', toolCalls: [{ name: 'generate_image', args: { prompt: 'a lighthouse at dusk, warm light', finishWhenDone: true } }] };
    default:
      return { content: 'waiting for the image' };
  }
});

const scoping: ScopingModel = {
  scopedTables: new Set<string>(),
  keyColumns: new Set(KEY_COLUMNS),
  globalTables: new Set(Object.keys(GLOBAL_TABLES)),
};

type Violation = { sql: string; tables: string[] };
/** Statements that touch a workspace-scoped table without a key (pg-boss's own pool excepted). */
function violationsOf(captured: readonly Captured[]): Violation[] {
  const seen = new Map<string, Violation>();
  for (const c of captured) {
    // pg-boss's pool only touches its own schema (pgboss.*), which is global by design; its
    // statements inside Atelier's transactions are checked like any other (they name pgboss.job).
    if (c.pgBoss) continue;
    const f = analyze(c.text, scoping);
    const tables = [...f.tables, ...f.functions];
    if (tables.length === 0) continue;
    const sql = normalizeSql(c.text);
    if (!seen.has(sql)) seen.set(sql, { sql, tables });
  }
  return [...seen.values()];
}
const allowedBy = (v: Violation): AllowEntry | undefined =>
  CROSS_WORKSPACE_ALLOWLIST.find((e) => e.match.test(v.sql) && v.tables.every((t) => e.tables.includes(t)));

let t: TestApp;
let dir: string;
/** The public tables and whether each has a workspace_id column (read in `before`). */
let tableKeys: { table_name: string; has_key: boolean }[] = [];
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-wsscope-'));
  t = await startTestApp(
    'wsscope',
    // Short watchdog, reconciliation and retention periods, so their sweeps run (and are checked) during the workload.
    { runtime: { ...testConfig().runtime, watchdogMs: 150, reconcileMs: 300, holdSweepMs: 300, heartbeatMs: 300, plugin: undefined,
      // The retention sweep runs too (nothing is old enough to go: it only has to send its statement).
      eventRetention: { days: 30, sweepMs: 300 } } },
    { models: scriptedProvider(model), provider: new SimulatedProvider({ filesDir: dir, latencyMs: { IMAGE: 50 } }) },
    { worker: { concurrency: 2 } },
  );
  // Which tables are workspace-scoped, from the database itself: a table with a workspace_id
  // column, or one classified as scoped without it; a table in neither list fails the schema test.
  const cols = await t.app.deps.prisma.$queryRawUnsafe<{ table_name: string; has_key: boolean }[]>(
    `SELECT table_name::text, bool_or(column_name = 'workspace_id') AS has_key
       FROM information_schema.columns WHERE table_schema = 'public' GROUP BY table_name ORDER BY 1`,
  );
  tableKeys = cols;
  for (const c of cols) if ((c.has_key || c.table_name in SCOPED_WITHOUT_KEY) && !(c.table_name in GLOBAL_TABLES)) (scoping.scopedTables as Set<string>).add(c.table_name);
});
after(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('every table carries workspace_id, or is classified: global (with a reason) or scoped through its parent', () => {
  const unclassified = tableKeys.filter((c) => !c.has_key && !(c.table_name in GLOBAL_TABLES) && !(c.table_name in SCOPED_WITHOUT_KEY)).map((c) => c.table_name);
  assert.deepEqual(unclassified, [], 'a table without workspace_id must be listed in GLOBAL_TABLES or SCOPED_WITHOUT_KEY');
  const stale = [...Object.keys(GLOBAL_TABLES), ...Object.keys(SCOPED_WITHOUT_KEY)].filter((n) => !tableKeys.some((c) => c.table_name === n));
  assert.deepEqual(stale, [], 'listed tables exist');
  const listedWithKey = Object.keys(SCOPED_WITHOUT_KEY).filter((n) => tableKeys.some((c) => c.table_name === n && c.has_key));
  assert.deepEqual(listedWithKey, [], 'a table that gained workspace_id leaves SCOPED_WITHOUT_KEY');
});

test('the rule: unconstrained reads and aggregates are crossings, keyed statements are not (self-check through the capture)', async () => {
  const p = t.app.deps.prisma;
  // Planted statements, sent through the same driver as the product's; `crossing` is the verdict
  // the rule must reach. (The worker runs meanwhile: only the planted statements are judged here.)
  const planted: { send: () => Promise<unknown>; sql: RegExp; crossing: boolean; why: string }[] = [
    { send: () => p.$queryRawUnsafe('SELECT count(*) FROM tasks'), sql: /^SELECT count\(\*\) FROM tasks$/, crossing: true, why: 'an aggregate over every workspace' },
    { send: () => p.$queryRawUnsafe(`SELECT id FROM task_events WHERE type = 'NOTE' ORDER BY id DESC LIMIT 5`), sql: /^SELECT id FROM task_events WHERE type/, crossing: true, why: 'a WHERE without a key' },
    { send: () => p.$queryRawUnsafe('SELECT t.id FROM tasks t JOIN turns u ON u.task_id = t.id WHERE u.status = $1 OR t.id = $2::uuid', 'RUNNING', t.a.workspaceId), sql: /OR t\.id = \$2/, crossing: true, why: 'a key under OR constrains nothing' },
    { send: () => p.task.findMany({ where: { status: 'PAUSED' }, take: 1 }), sql: /FROM "public"\."tasks" WHERE "public"\."tasks"\."status" = CAST/, crossing: true, why: "Prisma's findMany by status" },
    { send: () => p.$queryRawUnsafe('SELECT (SELECT count(*) FROM memories) AS n FROM workspaces WHERE id = $1::uuid', t.a.workspaceId), sql: /FROM memories\) AS n/, crossing: true, why: 'an uncorrelated subquery is judged on its own' },
    { send: () => p.$queryRawUnsafe('UPDATE turns SET enqueued_at = now() WHERE id IN (SELECT id FROM turns WHERE status::text = $1 LIMIT 1) AND false', 'PLANTED'), sql: /status::text = \$1 LIMIT 1\) AND false/, crossing: true, why: 'a key bound to an unconstrained subquery' },
    {
      // An allow-listed statement that grows a table it was not listed for is reported again.
      send: () => p.$queryRawUnsafe(`UPDATE turns SET enqueued_at = now() WHERE id IN (SELECT id FROM turns WHERE status = 'QUEUED' AND enqueued_at < now() AND EXISTS (SELECT 1 FROM memories)) AND false`),
      sql: /EXISTS \(SELECT 1 FROM memories\)\) AND false$/,
      crossing: true,
      why: 'an allow-list entry covers only the tables it names',
    },
    { send: () => p.task.findMany({ where: { workspaceId: t.a.workspaceId, status: 'PAUSED' }, take: 1 }), sql: /FROM "public"\."tasks" WHERE \("public"\."tasks"\."workspace_id" = \$1 AND "public"\."tasks"\."status"/, crossing: false, why: 'by workspace' },
    { send: () => p.$queryRawUnsafe('SELECT e.seq FROM task_events e WHERE e.task_id = $1::uuid', t.a.workspaceId), sql: /^SELECT e\.seq FROM task_events e WHERE e\.task_id/, crossing: false, why: 'by a task id' },
    { send: () => p.$queryRawUnsafe('SELECT id, (SELECT count(*) FROM turns u WHERE u.task_id = t.id) FROM tasks t WHERE t.workspace_id = ANY($1::uuid[])', [t.a.workspaceId]), sql: /FROM turns u WHERE u\.task_id = t\.id\)/, crossing: false, why: 'a correlated subquery under a keyed block' },
    { send: () => p.$queryRawUnsafe('SELECT u.id FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.id = $1::uuid', t.a.ownerId), sql: /^SELECT u\.id FROM users u JOIN memberships/, crossing: false, why: 'global tables only' },
  ];
  const cap = startCapture();
  for (const x of planted) await x.send();
  const captured = cap.stop();
  for (const x of planted) {
    const mine = captured.filter((c) => x.sql.test(normalizeSql(c.text)));
    assert.equal(mine.length, 1, `captured once: ${x.why}`);
    const v = violationsOf(mine).filter((y) => !allowedBy(y));
    assert.equal(v.length > 0, x.crossing, `${x.why}: ${normalizeSql(mine[0]!.text).slice(0, 300)}`);
  }
});

test('a workload in two workspaces sends no cross-workspace statement outside the allow-list', async () => {
  const wsA = toGlobalId('Workspace', t.a.workspaceId);
  const wsB = toGlobalId('Workspace', t.b.workspaceId);
  const cap = startCapture();
  const ws = wsClient(t.url, t.a.ownerToken);
  const wsb = wsClient(t.url, t.b.ownerToken);
  try {
    const feedB = collect(wsb, WorkspaceEventsSub, { workspaceId: wsB });
    const objectsA = collect(ws, ObjectChanges, { workspaceId: wsA });

    // Work in both workspaces: tasks by createTask and by a message, objects, a fact to remember.
    const mk = async (token: string, workspaceId: string, title: string) =>
      (await gqlOk(t.url, token, CreateTask, { input: { workspaceId, title } })).createTask.task.id;
    const taskA = await mk(t.a.ownerToken, wsA, 'lighthouse poster');
    const taskB = await mk(t.b.ownerToken, wsB, 'harbour poster');
    const eventsA = collect(ws, TaskEventsSub, { taskId: taskA, after: 0 });
    const cancelB = await mk(t.b.ownerToken, wsB, 'to be cancelled');
    await gqlOk(t.url, t.b.ownerToken, SignalTask, { input: { taskId: cancelB, signal: 'CANCEL', idempotencyKey: 'scope-cancel' } });
    const fact = await gqlOk(t.url, t.a.ownerToken, SendMessage, { input: { workspaceId: wsA, text: 'Our brand colour is teal.', idempotencyKey: 'scope-fact' } });
    const asked = await gqlOk(t.url, t.b.ownerToken, SendMessage, { input: { workspaceId: wsB, text: 'Make a poster for the spring market', idempotencyKey: 'scope-new' } });
    await gqlOk(t.url, t.a.ownerToken, SendMessage, { input: { workspaceId: wsA, taskId: taskA, text: 'keep it warm', idempotencyKey: 'scope-ctx' } });
    const obj = await gqlOk(t.url, t.b.ownerToken, CreateObject, { input: { workspaceId: wsB, kind: 'DOCUMENT', name: 'Notes', content: { markdown: '# Notes\nharbour\n' } } });
    await gqlOk(t.url, t.b.ownerToken, EditDocument, { input: { objectId: obj.createObject.object.id, baseVersion: 1, edits: [{ find: 'harbour', replace: 'harbour at dawn' }] } });

    // Every task runs to the end through the worker (model steps, tools, the generation job).
    const started = [taskA, taskB, ...(asked.sendMessage.task ? [asked.sendMessage.task.id] : [])];
    await eventually(async () => {
      for (const [id, token] of started.map((id) => [id, id === taskA ? t.a.ownerToken : t.b.ownerToken] as const)) {
        const s = (await gqlOk(t.url, token, TaskQuery, { id })).task?.status;
        if (s !== 'COMPLETED') return false;
      }
      return true;
    }, 'every task COMPLETED through the worker', 60_000);
    await eventually(async () => (await gqlOk(t.url, t.a.ownerToken, Memories, { id: wsA })).workspace!.memories.edges.length > 0, 'the fact extracted into memory', 10_000);
    assert.ok(fact.sendMessage.message.id);

    // Reads a client makes: lists, pages, journals, jobs, objects, memory, operations.
    for (const [token, w, task] of [[t.a.ownerToken, wsA, taskA], [t.b.ownerToken, wsB, taskB]] as const) {
      await gqlOk(t.url, token, ViewerQuery);
      await gqlOk(t.url, token, WorkspaceTasks, { id: w, first: 10 });
      await gqlOk(t.url, token, TaskEventsPage, { id: task, first: 50 });
      await gqlOk(t.url, token, TaskJournal, { id: task });
      await gqlOk(t.url, token, TaskJobs, { id: task });
      const objs = await gqlOk(t.url, token, TaskObjects, { id: task });
      await gqlOk(t.url, token, WorkspaceObjects, { id: w });
      for (const o of objs.task?.objects ?? []) await gqlOk(t.url, token, ObjectNode, { id: o.id });
      await gqlOk(t.url, token, Memories, { id: w });
      await gqlOk(t.url, token, Operations, { id: w });
    }
    await eventsA.collector.until((items) => items.some((e) => e.taskEvents.type === 'TASK_STATUS_CHANGED' && (e.taskEvents.payload as { to?: string } | null)?.to === 'COMPLETED'), 10_000, 'task A completed on its stream');
    await feedB.collector.until((items) => items.length > 0, 10_000, 'workspace B feed');
    await objectsA.collector.until((items) => items.length > 0, 10_000, 'object changes of A');

    // The schedule runner (what a worker's minute tick runs): a schedule of each workspace comes due.
    for (const [token, w] of [[t.a.ownerToken, wsA], [t.b.ownerToken, wsB]] as const) {
      await gqlOk(t.url, token, CreateSchedule, { input: { workspaceId: w, kind: 'MESSAGE', text: 'What is the status of the lighthouse poster?', cron: '0 9 * * 1' } });
    }
    const ticked = await runDueSchedules(t.app.deps, new Date(Date.now() + 8 * 86_400_000), { resendAfterMs: 0 });
    assert.equal(ticked.runs.length, 2, 'both schedules ran');

    // A follow-up (what follow_up_at, its wake and the follow-up worker's sweep send): recorded on
    // task A, come due, its wake applied, and the sweep for wakes whose job was lost.
    await t.app.deps.prisma.workspaceSettings.upsert({ where: { workspaceId: t.a.workspaceId }, create: { workspaceId: t.a.workspaceId, followUpsEnabled: true }, update: { followUpsEnabled: true } });
    const rawA = Buffer.from(taskA, 'base64').toString('utf8').split(':')[1]!;
    const tools = t.app.deps.runtime.tools;
    const followUp = (await tools.run(tools.get('follow_up_at')!, { inMinutes: 5, reason: 'check the poster' }, { idempotencyKey: 'scope-fu:0:0', taskId: rawA, workspaceId: t.a.workspaceId, turnId: 'scope-fu', uow: t.app.deps, signal: new AbortController().signal })) as { followUpId: string };
    await t.app.deps.prisma.followUp.update({ where: { id: followUp.followUpId }, data: { wakeAt: new Date() } });
    await sweepDueFollowUps(t.app.deps);
    await fireFollowUp(t.app.deps, followUp.followUpId);
  } finally {
    await ws.dispose();
    await wsb.dispose();
  }
  const captured = cap.stop();
  const violations = violationsOf(captured);
  const outside = violations.filter((v) => !allowedBy(v));
  // SCOPING_DUMP=<file> writes every crossing in full, to review a failure or an allow-list entry.
  if (process.env.SCOPING_DUMP) writeFileSync(process.env.SCOPING_DUMP, JSON.stringify(violations.map((v) => ({ ...v, allowedBy: allowedBy(v)?.name ?? null })), null, 2));
  assert.ok(captured.length > 200, `a representative workload (${captured.length} statements)`);
  // Every entry was met in this workload: an entry whose statement changed or went away is stale
  // (and would silently cover a different statement that happens to match).
  const unused = CROSS_WORKSPACE_ALLOWLIST.filter((e) => !violations.some((v) => allowedBy(v) === e)).map((e) => e.name);
  assert.deepEqual(unused, [], 'allow-list entries no statement of the workload matched');
  assert.deepEqual(
    outside.map((v) => `${v.tables.join(',')}: ${v.sql.slice(0, 400)}`),
    [],
    'statements crossing workspaces outside test/helpers/cross-workspace-allowlist.ts: constrain them by workspace_id or a key of one workspace, or allow-list them with a reason',
  );
});
