// Typed events: every stored event is an object type of its own implementing TaskEvent, with its
// payload as typed fields (references as global ids, status-like values as enums), and type and
// visibility filters that keep cursors exact — a filtered read or stream resumed from the last
// cursor it delivered misses nothing it selects and repeats nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parse, type DocumentNode } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { appendNow } from '../server/channel/unit-of-work.ts';
import { EVENT_CATALOG, EVENT_TYPES, type EventType } from '../server/domain/event-catalog.ts';
import { eventTypeName } from '../server/graphql/types/task-event-kinds.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId, wsClient } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { waitFor } from './helpers/wait.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const doc = (s: string) => parse(s) as DocumentNode as TypedDocumentNode<any, any>;

let t: TestApp;
before(async () => {
  t = await startTestApp('typedevents', { runtime: { leaseMs: 2000, watchdogMs: 500, staleQueuedMs: 5000, workerConcurrency: 2, maxStepsPerTurn: 12, maxTurnsPerTask: 25, plugin: undefined } });
  await t.app.startWorker({ concurrency: 2 });
});
after(async () => {
  await t.close();
});

const ws = () => toGlobalId('Workspace', t.a.workspaceId);

const TASK_EVENTS = doc(`query($id: ID!, $after: Int, $first: Int, $types: [TaskEventType!], $visibility: [EventVisibility!]) {
  task: node(id: $id) { ... on Task { events(after: $after, first: $first, types: $types, visibility: $visibility) {
    edges { cursor node {
      __typename seq type visibility cursor redacted
      ... on TaskCreatedEvent { title goal status taskKind messageId }
      ... on TaskStatusChangedEvent { from to transition reason }
      ... on TurnStartedEvent { turn generation takeover }
      ... on StepDecidedEvent { turn step message toolCalls { id name } }
      ... on ToolCallDoneEvent { callId tool result }
      ... on ModelCallEvent { model costCents inputTokens }
      ... on ContinuationDecidedEvent { decision reason }
      ... on NoteEvent { text }
      ... on MessageReceivedEvent { messageId inboxItemId text }
      ... on ApprovalRequestedEvent { approvalId approvalKind title quoteCents reasons { code message } }
      ... on ObjectCreatedEvent { objectId objectKind title version }
    } }
    pageInfo { hasNextPage endCursor }
  } } } }`);

const WORKSPACE_EVENTS = doc(`query($ws: ID!, $after: String, $first: Int, $types: [TaskEventType!], $visibility: [EventVisibility!]) {
  workspace: node(id: $ws) { ... on Workspace { events(after: $after, first: $first, types: $types, visibility: $visibility) {
    edges { cursor node { __typename seq type visibility cursor task { id } } }
    pageInfo { hasNextPage endCursor }
  } } } }`);

type Node = Record<string, unknown> & { __typename: string; seq: number; type: EventType; visibility: string; cursor: string };

async function taskEvents(taskId: string, vars: Record<string, unknown> = {}): Promise<{ nodes: Node[]; hasNextPage: boolean; endCursor: string | null }> {
  const d = await gqlOk(t.url, t.a.ownerToken, TASK_EVENTS, { id: taskId, first: 500, ...vars });
  const c = d.task.events;
  return { nodes: c.edges.map((e: { node: Node }) => e.node), hasNextPage: c.pageInfo.hasNextPage, endCursor: c.pageInfo.endCursor };
}

async function workspacePage(vars: Record<string, unknown>) {
  const d = await gqlOk(t.url, t.a.ownerToken, WORKSPACE_EVENTS, { ws: ws(), ...vars });
  const c = d.workspace.events;
  return { nodes: c.edges.map((e: { node: Node }) => e.node) as Node[], hasNextPage: c.pageInfo.hasNextPage as boolean, endCursor: c.pageInfo.endCursor as string | null };
}

/** Every page of a workspace read with `vars`, following endCursor. */
async function allWorkspacePages(vars: Record<string, unknown>, first: number, after: string | null = null): Promise<Node[]> {
  const out: Node[] = [];
  for (;;) {
    const p = await workspacePage({ ...vars, first, after });
    out.push(...p.nodes);
    if (!p.hasNextPage) return out;
    after = p.endCursor;
  }
}

const CREATE = doc(`mutation($input: CreateTaskInput!) { createTask(input: $input) { task { id } } }`);
const TASK_STATUS = doc(`query($id: ID!) { task: node(id: $id) { ... on Task { status } } }`);

let runTaskId = '';

test('a real run: every event is the object type of its type, with typed fields and no error', async () => {
  const d = await gqlOk(t.url, t.a.ownerToken, CREATE, { input: { workspaceId: ws(), title: 'Agenda for the autumn fair', goal: 'three talking points' } });
  runTaskId = d.createTask.task.id;
  await waitFor(async () => (await gqlOk(t.url, t.a.ownerToken, TASK_STATUS, { id: runTaskId })).task.status === 'COMPLETED', 'the task to complete', { timeoutMs: 60_000 });
  const r = await gql(t.url, t.a.ownerToken, TASK_EVENTS, { id: runTaskId, first: 500 });
  assert.deepEqual(r.errors ?? [], [], 'no field of any event errs');
  const nodes: Node[] = r.data.task.events.edges.map((e: { node: Node }) => e.node);
  assert.ok(nodes.length >= 6, `a run writes several events (got ${nodes.length})`);
  for (const n of nodes) {
    assert.equal(n.__typename, eventTypeName(n.type), `${n.type} is served as its own object type`);
    assert.equal(n.visibility, EVENT_CATALOG[n.type].visibility);
  }
  assert.deepEqual(nodes.map((n) => n.seq), nodes.map((_, i) => i + 1), 'seq 1, 2, 3, … with no gap');

  const created = nodes.find((n) => n.type === 'TASK_CREATED')!;
  assert.equal(created.title, 'Agenda for the autumn fair');
  assert.equal(created.goal, 'three talking points');
  assert.equal(created.status, 'QUEUED');
  const changes = nodes.filter((n) => n.type === 'TASK_STATUS_CHANGED');
  assert.ok(changes.length >= 2);
  assert.deepEqual(changes.at(-1)!.to, 'COMPLETED');
  for (const c of changes) {
    assert.match(String(c.from), /^[A-Z_]+$/, 'statuses are enum values');
    assert.match(String(c.transition), /^[A-Z_]+$/, 'transitions are enum values (START, COMPLETE, …), not the runtime\'s spelling');
  }
  const started = nodes.find((n) => n.type === 'TURN_STARTED')!;
  assert.equal(started.turn, 1);
  assert.equal(started.takeover, false);
  const step = nodes.find((n) => n.type === 'STEP_DECIDED' && (n.toolCalls as unknown[]).length > 0)!;
  const done = nodes.find((n) => n.type === 'TOOL_CALL_DONE')!;
  const callIds = (step.toolCalls as { id: string }[]).map((c) => c.id);
  assert.ok(nodes.filter((n) => n.type === 'TOOL_CALL_DONE').every((n) => typeof n.callId === 'string'));
  assert.equal(fromGlobalId(callIds[0]!).type, 'ToolCall', 'tool call references are global ids');
  assert.equal(fromGlobalId(String(done.callId)).type, 'ToolCall');
  // The model call is private: it keeps its place, its typed fields are null.
  const model = nodes.find((n) => n.type === 'MODEL_CALL')!;
  assert.equal(model.redacted, true);
  assert.equal(model.model, null);
  assert.equal(model.inputTokens, null);
});

test('payload references are global ids of the objects they name', async () => {
  const task = await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'refs' } });
  const taskGid = toGlobalId('Task', task.id);
  const approvalId = '3b2f0a52-8a7e-4d0c-9d55-0c1f4f6d7a11';
  const objectId = '6f1c6d7e-2b1a-4f0e-8a51-7e8d9c0b1a22';
  await appendNow(t.app.deps, task.id, [
    { type: 'APPROVAL_REQUESTED', actor: { kind: 'AGENT' }, payload: { approvalId, kind: 'PAID_ACTION', title: 'Order 4 images', quoteCents: 320, reasons: [{ code: 'PER_ACTION_LIMIT', message: 'costs more than 1 €' }], action: { type: 'GENERATE' } } },
    { type: 'OBJECT_CREATED', actor: { kind: 'AGENT' }, payload: { objectId, kind: 'IMAGE', name: 'Poster', version: 1 } },
    // A value the enum cannot carry (an old payload) is null, not an error for the event.
    { type: 'TASK_STATUS_CHANGED', actor: { kind: 'SYSTEM' }, payload: { from: 'QUEUED', to: 'SOMETHING_OLD', transition: 'exceedBudget', reason: null } },
  ]);
  const r = await gql(t.url, t.a.ownerToken, TASK_EVENTS, { id: taskGid, first: 10 });
  assert.deepEqual(r.errors ?? [], []);
  const [asked, obj, moved] = r.data.task.events.edges.map((e: { node: Node }) => e.node) as Node[];
  assert.deepEqual(fromGlobalId(String(asked!.approvalId)), { type: 'Approval', id: approvalId });
  assert.equal(asked!.approvalKind, 'PAID_ACTION');
  assert.equal(asked!.quoteCents, 320);
  assert.deepEqual(asked!.reasons, [{ code: 'PER_ACTION_LIMIT', message: 'costs more than 1 €' }]);
  assert.deepEqual(fromGlobalId(String(obj!.objectId)), { type: 'WorkspaceObject', id: objectId });
  assert.equal(obj!.title, 'Poster');
  assert.equal(obj!.objectKind, 'IMAGE');
  assert.equal(moved!.from, 'QUEUED');
  assert.equal(moved!.to, null);
  assert.equal(moved!.transition, 'EXCEED_BUDGET');
});

test('type and visibility filters: only what is selected, in order, and paging resumes exactly', async () => {
  assert.ok(runTaskId, 'the run of the first test');
  const all = (await taskEvents(runTaskId)).nodes;
  const milestones = (await taskEvents(runTaskId, { visibility: ['MILESTONE'] })).nodes;
  assert.deepEqual(milestones.map((n) => n.seq), all.filter((n) => EVENT_CATALOG[n.type].visibility === 'MILESTONE').map((n) => n.seq));
  assert.ok(milestones.length > 0 && milestones.length < all.length, 'a run has both milestones and details');
  const statuses = (await taskEvents(runTaskId, { types: ['TASK_STATUS_CHANGED', 'TURN_STARTED'] })).nodes;
  assert.deepEqual(statuses.map((n) => n.seq), all.filter((n) => n.type === 'TASK_STATUS_CHANGED' || n.type === 'TURN_STARTED').map((n) => n.seq));
  // Both: a type that is not a milestone selects nothing.
  assert.deepEqual((await taskEvents(runTaskId, { types: ['TURN_STARTED'], visibility: ['MILESTONE'] })).nodes, []);
  // Paging a filtered read two at a time gives exactly the one-page read.
  const paged: Node[] = [];
  let afterSeq = 0;
  for (;;) {
    const p = await taskEvents(runTaskId, { visibility: ['MILESTONE'], first: 2, after: afterSeq });
    paged.push(...p.nodes);
    if (!p.hasNextPage) break;
    afterSeq = p.nodes.at(-1)!.seq;
  }
  assert.deepEqual(paged.map((n) => n.seq), milestones.map((n) => n.seq));
  // The workspace read pages by cursor, filtered the same way.
  const wsAll = await allWorkspacePages({}, 500);
  const wsMilestones = await allWorkspacePages({ visibility: ['MILESTONE'] }, 3);
  assert.deepEqual(wsMilestones.map((n) => n.cursor), wsAll.filter((n) => n.visibility === 'MILESTONE').map((n) => n.cursor));
  assert.equal(new Set(wsAll.map((n) => n.cursor)).size, wsAll.length, 'cursors are unique');
});

test('a filtered subscription resumed from its last cursor misses nothing it selects and repeats nothing', async () => {
  const task = await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'stream' } });
  const head = (await allWorkspacePages({}, 500)).at(-1)!.cursor;
  const SUB = `subscription($after: String, $types: [TaskEventType!]) { workspaceEvents(after: $after, types: $types) { type seq cursor ... on NoteEvent { text } } }`;
  const got: Node[] = [];
  const open = (after: string) => {
    const c = wsClient(t.url, t.a.ownerToken);
    const stop = c.subscribe<{ workspaceEvents: Node }>(
      { query: SUB, variables: { after, types: ['NOTE', 'TASK_ARCHIVED'] } },
      { next: (r) => r.data && got.push(r.data.workspaceEvents), error: (e) => assert.fail(String(e)), complete: () => {} },
    );
    return { close: async () => { stop(); await c.dispose(); } };
  };
  const write = (i: number) =>
    appendNow(t.app.deps, task.id, [
      { type: 'NOTE', actor: { kind: 'AGENT' }, payload: { text: `note ${i}` } },
      { type: 'TURN_STARTED', actor: { kind: 'SYSTEM' }, payload: { turn: i, generation: 1, takeover: false } },
      ...(i % 3 === 0 ? [{ type: 'TASK_ARCHIVED' as const, actor: { kind: 'USER' as const }, payload: {} }] : []),
    ]);
  let s = open(head);
  for (let i = 1; i <= 6; i++) await write(i);
  await waitFor(() => got.length >= 8, 'the first six notes and two archivals');
  await s.close();
  // Events written while disconnected, then a resume from the last cursor received.
  for (let i = 7; i <= 12; i++) await write(i);
  s = open(got.at(-1)!.cursor);
  for (let i = 13; i <= 15; i++) await write(i);
  await waitFor(() => got.filter((n) => n.type === 'NOTE').length >= 15, 'every note');
  await waitFor(() => got.filter((n) => n.type === 'TASK_ARCHIVED').length >= 5, 'every archival');
  await s.close();
  const expected = (await allWorkspacePages({ types: ['NOTE', 'TASK_ARCHIVED'] }, 100, head)).map((n) => n.cursor);
  assert.deepEqual(got.map((n) => n.cursor), expected, 'exactly the selected events, once each, in order');
  assert.ok(got.every((n) => n.type !== 'TURN_STARTED'));
  assert.deepEqual(got.filter((n) => n.type === 'NOTE').map((n) => n.text), Array.from({ length: 15 }, (_, i) => `note ${i + 1}`));
});

test('bad filters and cursors are the caller\'s mistake: BAD_USER_INPUT, never INTERNAL', async () => {
  const bad = async (vars: Record<string, unknown>) => {
    const r = await gql(t.url, t.a.ownerToken, WORKSPACE_EVENTS, { ws: ws(), ...vars });
    assert.ok(r.errors?.length, `refused: ${JSON.stringify(vars)}`);
    for (const e of r.errors!) {
      assert.notEqual(e.extensions?.code, 'INTERNAL');
      assert.doesNotMatch(e.message, /at .*\.ts|SELECT|prisma/i);
    }
    return r.errors![0]!;
  };
  assert.match((await bad({ types: ['NOT_A_TYPE'] })).message, /TaskEventType|NOT_A_TYPE/);
  assert.equal((await bad({ after: 'not-a-cursor' })).extensions?.code, 'BAD_USER_INPUT');
  assert.equal((await bad({ first: 0 })).extensions?.code, 'BAD_USER_INPUT');
  // Another workspace's cursor.
  const other = await t.app.deps.prisma.task.create({ data: { workspaceId: t.b.workspaceId, title: 'elsewhere' } });
  await appendNow(t.app.deps, other.id, [{ type: 'NOTE', actor: { kind: 'AGENT' }, payload: { text: 'b' } }]);
  const bPage = await gqlOk(t.url, t.b.ownerToken, WORKSPACE_EVENTS, { ws: toGlobalId('Workspace', t.b.workspaceId) });
  const bCursor = bPage.workspace.events.edges.at(-1).cursor;
  const e = await bad({ after: bCursor });
  assert.equal(e.extensions?.code, 'BAD_USER_INPUT');
  assert.match(e.message, /another workspace/);
});

test('the schema: every catalogued type has its object type implementing TaskEvent, and the enum lists them all', async () => {
  const r = await gql(t.url, t.a.ownerToken, doc(`{ __type(name: "TaskEvent") { possibleTypes { name } } e: __type(name: "TaskEventType") { enumValues { name } } }`), {});
  const possible = new Set(r.data.__type.possibleTypes.map((x: { name: string }) => x.name));
  assert.deepEqual(new Set(r.data.e.enumValues.map((x: { name: string }) => x.name)), new Set(EVENT_TYPES));
  for (const type of EVENT_TYPES) assert.ok(possible.has(eventTypeName(type)), `${eventTypeName(type)} implements TaskEvent`);
});

test('one query may select every field of every event type: fragments on different event types are costed as alternatives', async () => {
  assert.ok(runTaskId, 'the run of the first test');
  const sub: Record<string, string> = { '[ChecklistItem]': '{ id title status }', '[ApprovalReason]': '{ code message }', '[ApprovalOption]': '{ id label }', '[EventToolCall]': '{ id name }', '[EventFile]': '{ mime bytes }' };
  const fragments = EVENT_TYPES.map((type) => {
    const fields = Object.entries(EVENT_CATALOG[type].fields as Record<string, readonly [string, string, string?]>).map(([name, [kind]]) => `${name} ${sub[kind] ?? ''}`);
    return `... on ${eventTypeName(type)} { __typename ${fields.join(' ')} }`;
  });
  const r = await gql(t.url, t.a.ownerToken, doc(`query($id: ID!) { node(id: $id) { ... on Task { events(first: 500) { edges { node { seq type ${fragments.join(' ')} } } } } } }`), { id: runTaskId });
  assert.deepEqual(r.errors ?? [], [], 'accepted, and every field of every event resolves');
  assert.ok(r.data.node.events.edges.length > 5);
});
