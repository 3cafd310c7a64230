// Forgetting reaches everything derived. A scripted model does what any real model does with a
// remembered fact: it copies it — here a unique marker, the brand colour a person told — into
// every artifact it can: the plan and checklist, a note, a document, a flow node, an image prompt
// (and so the asset's name), a step's own words, and the delivery. After the person forgets the
// source and approves through the real API:
//  - the card lists the works holding it; the person cleans two and keeps one;
//  - a scan of every text, varchar, json, jsonb and bytea column of every schema (pg-boss's
//    included) finds the marker only in the chat history (the person's own message and its
//    delivery into the task) and in the work the person chose to keep;
//  - the API shows it nowhere else (task, events, journal, checklist, jobs), and withheld events
//    say so with a typed reason, while seq numbers and hashes stay as they were;
//  - the append-only log is unchanged row for row (no UPDATE): what changed is that its key is gone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import pg from 'pg';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import type { Viewer } from '../server/auth/viewer.ts';
import { extractEvidence } from '../server/services/memory/extract-memories.ts';
import { sendMessage } from '../server/services/messages/send-message.ts';
import { WITHHELD_TEXT } from '../server/domain/sealing.ts';
import { buildWorkerInput } from '../server/runtime/context.ts';
import { replayTask } from '../server/runtime/replay.ts';
import { loadTaskState } from '../server/runtime/task-state.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { waitFor } from './helpers/wait.ts';

const MARKER = 'zorblaxmauve';
// The model reads the value from its memory section, as a real one would; it never sees MARKER.
const remembered = (messages: BaseMessage[]): string => {
  const text = messages.map((m) => String(m.content)).join('\n');
  const section = /<long-term-memory>([\s\S]*?)<\/long-term-memory>/.exec(text)?.[1] ?? '';
  const m = /brand colou?rs?[^:\n]*?(?:is|:)\s*([\p{L}-]+)/iu.exec(section) ?? /-\s*([\p{L}-]*mauve[\p{L}-]*)/iu.exec(section);
  return m?.[1] ?? 'none';
};

const model = new ScriptedChatModel(({ messages }) => {
  const c = remembered(messages);
  const done = messages.filter((m) => m instanceof ToolMessage).map((m) => String(m.content));
  const n = done.length;
  if (messages.some((m) => String(m.content).includes('[generation result]')) && !done.some((d) => d.includes('"completed"'))) {
    return { content: `All in ${c}.`, toolCalls: [{ name: 'complete_task', args: { summary: `Delivered the poster kit in ${c}.` } }] };
  }
  const script: { name: string; args: Record<string, unknown> }[] = [
    { name: 'plan_checklist', args: { items: [{ id: 'brief', title: `Brief in ${c}`, kind: 'DOCUMENT' }, { id: 'img', title: `Poster image in ${c}`, kind: 'IMAGE' }], reason: `The brand colour is ${c}.` } },
    { name: 'add_note', args: { text: `Using the brand colour ${c} throughout.` } },
    { name: 'create_document', args: { name: `Brand brief ${c}`, markdown: `# Brief\n\nMain colour: ${c}.` } },
    { name: 'create_flow', args: { name: `Poster flow ${c}`, nodes: [{ id: 'n1', kind: 'prompt', params: { text: `a poster in ${c}` } }], edges: [] } },
    { name: 'update_checklist', args: { itemId: 'brief', status: 'DONE', evidence: `brief written in ${c}` } },
    { name: 'generate_image', args: { prompt: `poster in ${c} tones`, checklistItemId: 'img', finishWhenDone: false } },
  ];
  const next = script[n];
  if (next) return { content: `Step ${n}: ${c}.`, toolCalls: [next] };
  return { content: `Waiting for the image in ${c}.` };
});

const any = (s: string) => parse(s) as unknown as TypedDocumentNode<any, Record<string, unknown>>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp;
let dir: string;
let viewer: Viewer;
const chat: { messageIds: string[] } = { messageIds: [] };
/** Steps that read the person's message from their task's inbox. */
const readers: string[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-erasure-'));
  t = await startTestApp(
    'erasure',
    {},
    { models: scriptedProvider(model), provider: new SimulatedProvider({ filesDir: dir, latencyMs: { IMAGE: 50 } }), memory: { timeoutMs: 30_000 } },
    { worker: { concurrency: 1 } },
  );
  viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
});
after(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every row of every table whose text-like columns contain the token (pg-boss's schema included). */
async function scan(token: string): Promise<{ table: string; row: Record<string, unknown> }[]> {
  const c = new pg.Client({ connectionString: t.dbUrl });
  await c.connect();
  try {
    const cols = await c.query<{ s: string; t: string; c: string; type: string }>(
      `SELECT c.table_schema AS s, c.table_name AS t, c.column_name AS c, c.data_type AS type
         FROM information_schema.columns c JOIN information_schema.tables x USING (table_schema, table_name)
        WHERE x.table_type = 'BASE TABLE' AND c.table_schema NOT IN ('pg_catalog', 'information_schema')
          -- A partitioned table is scanned through its parent (which reads every partition), once.
          AND NOT EXISTS (SELECT 1 FROM pg_class k JOIN pg_namespace n ON n.oid = k.relnamespace
                           WHERE n.nspname = c.table_schema AND k.relname = c.table_name AND k.relispartition)
          AND (c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea') OR c.data_type = 'ARRAY')`,
    );
    const byTable = new Map<string, { s: string; t: string; cols: { c: string; type: string }[] }>();
    for (const r of cols.rows) {
      const k = `${r.s}.${r.t}`;
      if (!byTable.has(k)) byTable.set(k, { s: r.s, t: r.t, cols: [] });
      byTable.get(k)!.cols.push({ c: r.c, type: r.type });
    }
    const hits: { table: string; row: Record<string, unknown> }[] = [];
    for (const [k, { s, t: name, cols: cs }] of byTable) {
      // bytea is compared as its UTF-8 text (escape form), so a plaintext copy in binary is found too.
      const where = cs.map(({ c, type }) => (type === 'bytea' ? `position(convert_to($1::text, 'UTF8') in "${c}") > 0` : `"${c}"::text ILIKE '%' || $1::text || '%'`)).join(' OR ');
      const rows = await c.query(`SELECT to_jsonb(x) AS j FROM "${s}"."${name}" x WHERE ${where}`, [token]);
      for (const r of rows.rows) hits.push({ table: k, row: r.j as Record<string, unknown> });
    }
    return hits;
  } finally {
    await c.end();
  }
}

/** The person's own words: their message and its delivery into the task (chat history, kept). */
const isChatHistory = (h: { table: string; row: Record<string, unknown> }) =>
  (h.table === 'public.messages' && chat.messageIds.includes(String(h.row.id))) ||
  // The thread's acknowledgement quoting it: chat history too (forgetting removes it with its source).
  (h.table === 'public.messages' && chat.messageIds.some((m) => String(h.row.idempotency_key).startsWith(`reply:${m}`))) ||
  (h.table === 'public.inbox_items' && chat.messageIds.some((m) => h.row.idempotency_key === `message:${m}`)) ||
  (h.table === 'public.task_events' && h.row.type === 'MESSAGE_RECEIVED' && chat.messageIds.includes(String((h.row.payload as { messageId?: string })?.messageId)));
/** The works: the person keeps them unless they choose to clean them (store/objects). */
const isWork = (h: { table: string }) => h.table === 'public.object_versions' || h.table === 'public.workspace_objects';

const TaskView = any(`query ($id: ID!) {
  task(id: $id) {
    id status summary title withheld { reason message }
    checklist { items { title evidence } }
    jobs { prompt }
    turns { steps { message toolCalls { input result } } }
    events(first: 500) { edges { node { seq type payload withheld { reason message } payloadRef { hash } } } }
  }
}`);

describe('forgetting a remembered value that the agent copied everywhere', () => {
  let taskId: string;
  let evidenceId: string;

  test('before: the marker reached every kind of derived place, and none of them holds it in the clear', async () => {
    const { prisma } = t.app.deps;
    // The person tells the brand colour (a task panel message: chat history) and it is extracted.
    const brand = await prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'Brand kit', goal: 'brand kit', status: 'WAITING', createdById: t.a.ownerId } });
    const sent = await sendMessage(t.app.deps, viewer, { workspaceId: t.a.workspaceId, text: `Our brand color is ${MARKER}.`, taskId: brand.id, idempotencyKey: 'brand-1' });
    chat.messageIds.push(sent.messageId);
    evidenceId = (await prisma.memoryEvidence.findUniqueOrThrow({ where: { messageId: sent.messageId } })).id;
    // The worker reads the message in the brand task before anything is extracted from it: that
    // step had no memory (nothing sealed) and its request holds the person's words as they are.
    await waitFor(async () => (await prisma.inboxItem.count({ where: { taskId: brand.id, idempotencyKey: `message:${sent.messageId}`, consumedTurnId: { not: null } } })) === 1, 'the brand task reads the message');
    readers.push(...(await prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT s.id::text AS id FROM steps s JOIN inbox_items i ON i.consumed_turn_id = s.turn_id AND i.consumed_step = s.index WHERE i.idempotency_key = $1`,
      `message:${sent.messageId}`,
    )).map((r) => r.id));
    assert.equal(readers.length, 1, 'one step read the message');
    await extractEvidence(t.app.deps.memory, evidenceId);
    assert.ok(await prisma.memoryVersion.findFirst({ where: { value: { contains: MARKER } } }), 'the memory exists');

    // Every paid action asks first, so the image's prompt also reaches an approval card.
    await prisma.workspaceSettings.upsert({ where: { workspaceId: t.a.workspaceId }, create: { workspaceId: t.a.workspaceId, perActionFreeCents: 0 }, update: { perActionFreeCents: 0 } });
    // A task whose context carries the memory; any card it raises (a plan, a paid image) the person approves.
    const created = await gqlOk(t.url, t.a.ownerToken, any(`mutation ($i: CreateTaskInput!) { createTask(input: $i) { task { id } } }`), {
      i: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: 'Poster kit', goal: 'A poster kit in our brand colour', idempotencyKey: 'poster-kit' },
    });
    taskId = Buffer.from(created.createTask.task.id, 'base64').toString().split(':')[1]!;
    let approved = 0;
    await waitFor(
      async () => {
        const pending = await prisma.approval.findFirst({ where: { taskId, status: 'PENDING' } });
        if (pending) {
          await gqlOk(t.url, t.a.ownerToken, any(`mutation ($i: ResolveApprovalInput!) { resolveApproval(input: $i) { approval { status } } }`), {
            i: { approvalId: toGlobalId('Approval', pending.id), decision: 'APPROVE', idempotencyKey: `ok-${++approved}` },
          });
        }
        return (await prisma.task.findUniqueOrThrow({ where: { id: taskId } })).status === 'COMPLETED';
      },
      'the task completes',
      { timeoutMs: 60_000 },
    ).catch(async (e) => {
      const events = await prisma.taskEvent.findMany({ where: { taskId }, orderBy: { seq: 'asc' } });
      throw new Error(`${e}: ${events.map((x) => x.type).join(',')}`);
    });

    // Non-vacuous: the model really copied the value into each kind of artifact (read as plaintext through the API).
    const view = (await gqlOk(t.url, t.a.ownerToken, TaskView, { id: toGlobalId('Task', taskId) })).task;
    assert.match(view.summary, new RegExp(MARKER));
    assert.equal(view.withheld, null, 'nothing withheld before forgetting');
    assert.ok(view.checklist.items.some((i: { title: string }) => i.title.includes(MARKER)), 'checklist');
    assert.ok(view.jobs.some((j: { prompt: string }) => j.prompt.includes(MARKER)), 'job prompt');
    assert.ok(approved >= 1, 'the paid image asked for approval');
    const payloads = JSON.stringify(view.events.edges.map((e: { node: { payload: unknown } }) => e.node.payload));
    const carrying = new Set(view.events.edges.filter((e: { node: { payload: unknown } }) => JSON.stringify(e.node.payload).includes(MARKER)).map((e: { node: { type: string } }) => e.node.type));
    for (const type of ['STEP_DECIDED', 'NOTE', 'CHECKLIST_UPDATED', 'OBJECT_CREATED', 'TOOL_CALL_DONE']) assert.ok(carrying.has(type), `${type} carries the value (${[...carrying].join(', ')})`);
    // The delivery carries it too, whichever way the task ended: the model's completion (TURN_ENDED's
    // summary) when the image arrived while its turn ran, else the runtime's own delivery citing the
    // finished checklist (TASK_DELIVERED) when it arrived after the turn had suspended.
    assert.ok(carrying.has('TURN_ENDED') || carrying.has('TASK_DELIVERED'), `the delivery carries the value (${[...carrying].join(', ')})`);
    assert.ok(payloads.includes(MARKER));
    const steps = JSON.stringify(view.turns);
    assert.ok(steps.includes(MARKER), 'decisions and tool inputs');
    // Sealed at rest, the journal still replays exactly while its keys live.
    const replay = await replayTask(prisma, taskId);
    assert.deepEqual([replay.divergence, replay.withheld], [null, []]);

    // At rest, outside the chat history, the works, memory itself and the tasks' summaries and search
    // index (plain, for the router; rebuilt when forgetting), the marker is stored only sealed.
    // The step that read the person's message itself holds a copy of their words (chat history
    // until the source is forgotten; forgetting redacts it, below).
    const readerOfMessage = (h: { table: string; row: Record<string, unknown> }) => h.table === 'public.steps' && readers.includes(String(h.row.id));
    const clear = (await scan(MARKER)).filter((h) => !isChatHistory(h) && !isWork(h) && !readerOfMessage(h) && h.table !== 'public.tasks' && !h.table.startsWith('public.memory_'));
    assert.deepEqual(clear.map((h) => `${h.table}: ${JSON.stringify(h.row).slice(0, 160)}`), []);
  });

  test('after forgetting through the API: the marker is only in the chat history and the kept works; the API shows it nowhere else', async () => {
    const { prisma } = t.app.deps;
    const logBefore = await prisma.taskEvent.findMany({ where: { taskId }, orderBy: { seq: 'asc' } });

    const asked = await gqlOk(t.url, t.a.ownerToken, any(`mutation ($i: ForgetEvidenceInput!) { forgetEvidence(input: $i) { approval { id } } }`), {
      i: { evidenceId: toGlobalId('MemoryEvidence', evidenceId) },
    });
    // Nothing happened yet: forgetting waits for the person's approval.
    assert.ok(await prisma.dataKey.findFirst({ where: { taskId, material: { not: null } } }), 'keys live until approved');
    await gqlOk(t.url, t.a.ownerToken, any(`mutation ($i: ResolveApprovalInput!) { resolveApproval(input: $i) { approval { status } } }`), {
      i: { approvalId: asked.forgetEvidence.approval.id, decision: 'APPROVE', idempotencyKey: 'forget-ok' },
    });
    // The card listed the works holding the value; the person cleans the document and the flow and
    // keeps the image (whose name is its prompt) as it is.
    const card = await gqlOk(t.url, t.a.ownerToken, any(`query ($id: ID!) { node(id: $id) { ... on Approval { works { objectId kind name } } } }`), { id: asked.forgetEvidence.approval.id });
    const works = card.node.works as { objectId: string; kind: string; name: string }[];
    // (The brand-kit task the message went to ran the same script: its document and flow are listed too.)
    assert.deepEqual([...new Set(works.map((w) => w.kind))].sort(), ['DOCUMENT', 'FLOW', 'IMAGE'], JSON.stringify(works));
    assert.equal(works.filter((w) => w.kind === 'IMAGE').length, 1);
    const cleaned = works.filter((w) => w.kind !== 'IMAGE');
    await gqlOk(t.url, t.a.ownerToken, any(`mutation ($i: RedactWorksInput!) { redactWorks(input: $i) { __typename } }`), {
      i: { approvalId: asked.forgetEvidence.approval.id, objectIds: cleaned.map((w) => w.objectId), idempotencyKey: 'clean-works' },
    });
    const kept = works.find((w) => w.kind === 'IMAGE')!;
    const keptId = Buffer.from(kept.objectId, 'base64').toString().split(':')[1]!;

    // The scan: every text-like column of every schema.
    const hits = await scan(MARKER);
    // A kept work: the image's object row and its versions (by object id).
    const isKeptWork = (h: { table: string; row: Record<string, unknown> }) =>
      isWork(h) && (h.row.id === keptId || h.row.object_id === keptId);
    const stray = hits.filter((h) => !isChatHistory(h) && !isKeptWork(h));
    assert.deepEqual(stray.map((h) => `${h.table}: ${JSON.stringify(h.row).slice(0, 200)}`), [], 'nothing derived, and no cleaned work, keeps the value');
    assert.ok(hits.some(isKeptWork), 'the work the person kept keeps it (their choice)');
    const readerRows = await prisma.step.findMany({ where: { id: { in: readers } }, select: { request: true } });
    assert.deepEqual(readerRows.map((r) => r.request), [null], 'the step that read the forgotten message has its request dropped');

    // The API: nowhere.
    const view = (await gqlOk(t.url, t.a.ownerToken, TaskView, { id: toGlobalId('Task', taskId) })).task;
    assert.ok(!JSON.stringify(view).includes(MARKER), `API: ${JSON.stringify(view).slice(0, 400)}`);
    assert.equal(view.summary, WITHHELD_TEXT, 'the summary was rebuilt');
    assert.equal(view.withheld?.reason, 'FORGOTTEN_MEMORY', 'the task says some of its content is withheld');
    const withheld = view.events.edges.filter((e: { node: { withheld: unknown } }) => e.node.withheld);
    assert.ok(withheld.length >= 5, `withheld events: ${withheld.length}`);
    assert.deepEqual(new Set(withheld.map((e: { node: { withheld: { reason: string } } }) => e.node.withheld.reason)), new Set(['FORGOTTEN_MEMORY']));
    assert.ok(view.checklist.items.every((i: { title: string }) => i.title === WITHHELD_TEXT), 'checklist text withheld');

    // The log itself: not one row changed (no UPDATE); seq numbers, hashes and ciphertext are as they were.
    const logAfter = await prisma.taskEvent.findMany({ where: { taskId }, orderBy: { seq: 'asc' } });
    assert.deepEqual(logAfter.slice(0, logBefore.length), logBefore);
    assert.deepEqual(logBefore.map((e) => e.seq), logBefore.map((_e, i) => i + 1));

    // The targeted cleanup ran after the commit (a manual VACUUM, not autovacuum): it reclaims the
    // dead row versions that held the key material, as far as no open snapshot still sees them
    // (what remains physically until then, and in WAL and backups, is in server/README.md).
    await waitFor(async () => {
      const [st] = await prisma.$queryRawUnsafe<{ vacuumed: boolean }[]>(`SELECT last_vacuum IS NOT NULL AS vacuumed FROM pg_stat_user_tables WHERE relname = 'data_keys'`);
      return st?.vacuumed;
    }, 'data_keys vacuumed after the forgetting', { timeoutMs: 60_000 });

    // A wrong or stale read path can never bring it back: the key material is gone from the row.
    const keys = await prisma.dataKey.findMany({ where: { taskId } });
    assert.ok(keys.length >= 1 && keys.every((k) => k.material === null && k.destroyedReason === 'FORGOTTEN'));
  });

  test('replay reports the withheld steps as withheld, not as a divergence; the state tail and the next context carry no forgotten value', async () => {
    const { prisma } = t.app.deps;
    const report = await replayTask(prisma, taskId);
    assert.equal(report.divergence, null, JSON.stringify(report.divergence));
    assert.ok(report.withheld.length >= 6, `withheld steps: ${report.withheld.length} of ${report.steps}`);
    // The fold a takeover starts from (snapshots were dropped and rebuilt from the log) and the
    // context the next step would be given, tail included.
    const { state } = await loadTaskState(prisma, taskId);
    assert.ok(!JSON.stringify(state).includes(MARKER));
    const ctx = await buildWorkerInput(prisma, taskId, undefined, { capabilities: null }, t.app.deps.memory.context);
    const text = JSON.stringify(ctx);
    assert.ok(!text.includes(MARKER), 'the next request');
    assert.match(text, /\[task state\]/);
  });

  test('the router no longer finds the task by the forgotten value', async () => {
    // search_text / search_tsv are generated from title, goal and summary: the summary was rebuilt.
    const rows = await t.app.deps.prisma.$queryRawUnsafe<{ id: string }[]>(`SELECT id FROM tasks WHERE search_text ILIKE '%' || $1 || '%' OR search_tsv @@ plainto_tsquery('simple', $1)`, MARKER);
    assert.deepEqual(rows.filter((x) => x.id === taskId), []);
  });
});
