// One id format. A realistic workspace is made through the API — a poster series run by the offline
// agent with its plan, price and pick cards, memories stated in the thread, a document, a flow and a
// collection, a change by a person to a result a waiting task had seen, a question about where a
// message goes, a forgetting with its works, a deletion — and then walked: every object type reached
// from the viewer and the workspace, and every node found on the way (node(id) for each id read), with
// every field the schema offers (generated from introspection, so a new field is walked too). No
// string anywhere in any answer — ids, texts, JSON values, mutation payloads — may hold a raw UUID;
// every id field holds a global id of a type of the schema. Then every argument and input field typed
// ID, found by introspection (root fields and fields below them, nested inputs and lists included), is
// sent a raw UUID of a real object and garbage: each is BAD_USER_INPUT with a sentence naming it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isAbstractType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { extractPending } from '../server/services/memory/extract-memories.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { toGlobalId, wsClient } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { waitFor } from './helpers/wait.ts';
import { setApp, setSeeded } from './hostile/state.ts';
import { label, operation, pathsToTypes, reaches, targetsOf, wrap, type Segment, type Target } from './hostile/targets.ts';
import { http, ws } from './hostile/transport.ts';
import { idKind, validValue } from './hostile/valid-values.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const NOBODY = '00000000-0000-4000-8000-000000000000';
/**
 * A generated file is named by the provider that made it (`sim_<uuid>.png`): that is a file name —
 * what GET /files/<name> and a signed URL take — not a reference to a row, so it is read past.
 */
const FILE_NAME = /[A-Za-z0-9_-]*[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}[A-Za-z0-9_-]*\.[A-Za-z0-9]{2,5}\b/gi;
const rawUuidIn = (s: string) => UUID.test(s.replace(FILE_NAME, ''));
/**
 * The untyped, deprecated payload of an event (kept for one release) holds the stored keys as they
 * are; every event type's typed fields are walked like everything else.
 */
const isRawPayload = (type: GraphQLObjectType, field: string) => field === 'payload' && type.getInterfaces().some((i) => i.name === 'TaskEvent');

let t: TestApp;
let dataDir: string;
let schema: GraphQLSchema;
let ws0 = '';
let n = 0;
const key = (p: string) => `gid-${p}-${++n}`;
const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'];
const raw = (gid: string) => fromGlobalId(gid).id;
/** Every answer the test received, with what asked for it: each is checked for raw UUIDs. */
const answers: { what: string; data: unknown }[] = [];

async function api<T = any>(query: string, variables: Record<string, unknown> = {}, what = query.slice(0, 60)): Promise<T> {
  const r = await http(query, variables, t.a.ownerToken, t.url);
  if (r.errors.length || !r.data) throw new Error(`${what}: ${JSON.stringify(r.errors)} ${r.unparsable ?? ''}`);
  answers.push({ what, data: r.data });
  return r.data as T;
}

const prisma = () => t.app.deps.prisma;

/** Approves every pending card of the task (a pick takes the first option) until the task ends. */
async function runToEnd(taskGid: string, pick: (options: { id: string }[]) => string | null = (o) => o[0]?.id ?? null) {
  await waitFor(
    async () => {
      const d = await api(`query($id: ID!) { task(id: $id) { status approvals(statuses: [PENDING]) { edges { node { id kind options { id } } } } } }`, { id: taskGid }, 'pending cards');
      for (const { node: a } of d.task.approvals.edges) {
        const choice = a.kind === 'CHECKPOINT' ? pick(a.options) : null;
        await api(`mutation($input: ResolveApprovalInput!) { resolveApproval(input: $input) { approval { id status choice } } }`, {
          input: { approvalId: a.id, decision: choice ? 'PICK' : 'APPROVE', idempotencyKey: key('approve'), ...(choice ? { choice } : {}) },
        });
      }
      return TERMINAL.includes(d.task.status);
    },
    `task ${taskGid} to end`,
    { timeoutMs: 120_000, intervalMs: 100 },
  );
}

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'atelier-global-ids-'));
  t = await startTestApp(
    'globalids',
    { dataDir, rateLimitPerMinute: 1_000_000, maxQueryTokens: 1_000_000, maxQueryDepth: 64, maxQueryCost: 100_000_000, maxAliases: 1000 },
    { provider: new SimulatedProvider({ filesDir: join(dataDir, 'files'), latencyMs: { IMAGE: 40, VIDEO: 40, AUDIO: 40, MODEL_3D: 40 } }), memory: { timeoutMs: 30_000 } },
    { worker: { concurrency: 2 } },
  );
  setApp(t);
  ws0 = toGlobalId('Workspace', t.a.workspaceId);
  const send = async (text: string, extra: Record<string, unknown> = {}) =>
    (
      await api(
        `mutation($input: SendMessageInput!) { sendMessage(input: $input) { duplicate message { id text } task { id title } route { outcome reason task { id } candidates { title task { id } } } approval { id kind status options { id label task { id } } } reply { id text } } }`,
        { input: { workspaceId: ws0, text, idempotencyKey: key('send'), ...extra } },
        `sendMessage ${text}`,
      )
    ).sendMessage;

  // What the workspace remembers, stated in the thread.
  await send('Our brand color is teal.');
  await send('I prefer muted palettes.');
  await extractPending(t.app.deps.memory, t.a.workspaceId, t.a.ownerId);

  // A poster series: plan, prices, three candidates, a pick, the final posters. While the pick card
  // waits, a person renames a candidate the task made: the task gets a change notice.
  const poster = await send('make three retro posters for a coffee brand');
  const posterTask = poster.task.id as string;
  const pickCard = await waitFor(
    async () => {
      const d = await api(`query($id: ID!) { task(id: $id) { approvals(statuses: [PENDING]) { edges { node { id kind options { id object { id } } } } } } }`, { id: posterTask }, 'pick card');
      for (const { node: a } of d.task.approvals.edges) {
        if (a.kind === 'CHECKPOINT') return a;
        await api(`mutation($input: ResolveApprovalInput!) { resolveApproval(input: $input) { approval { id } } }`, {
          input: { approvalId: a.id, decision: 'APPROVE', idempotencyKey: key('approve') },
        });
      }
      return null;
    },
    'the pick card',
    { timeoutMs: 120_000, intervalMs: 100 },
  );
  const candidate = pickCard.options.find((o: { object: { id: string } | null }) => o.object)?.object.id as string;
  assert.ok(candidate, 'a candidate option names its picture');
  const cur = (await api(`query($id: ID!) { node(id: $id) { ... on WorkspaceObject { currentVersion content } } }`, { id: candidate })).node;
  await api(`mutation($input: UpdateObjectInput!) { updateObject(input: $input) { object { id title } version { version } } }`, {
    input: { objectId: candidate, baseVersion: cur.currentVersion, content: cur.content, title: 'Sunburst, kept', idempotencyKey: key('rename') },
  });
  await runToEnd(posterTask);

  // A document that says the brand colour, a flow, and a collection of the two.
  const create = async (kind: string, title: string, content: unknown) =>
    (await api(`mutation($input: CreateObjectInput!) { createObject(input: $input) { object { id title } version { version } } }`, {
      input: { workspaceId: ws0, kind, title, content, idempotencyKey: key('create') },
    })).createObject.object.id as string;
  const doc = await create('DOCUMENT', 'Brand brief', { markdown: '# Brand\n\nOur colour is teal.' });
  const flow = await create('FLOW', 'Poster pipeline', { nodes: [{ id: 'prompt', kind: 'text' }, { id: 'image', kind: 'generate_image', inputs: { prompt: { node: 'prompt' } } }], edges: [{ from: 'prompt', to: 'image' }] });
  await create('COLLECTION', 'Kit', { items: [{ objectId: doc, note: 'the brief' }, { objectId: flow }, { objectId: candidate }] });
  await api(`mutation($input: EditDocumentInput!) { editDocument(input: $input) { version { version } } }`, { input: { objectId: doc, edits: [{ find: '# Brand', replace: '# Brand brief' }], idempotencyKey: key('edit') } });

  // A question about where a message goes: two live tasks use one object.
  const tasks = await Promise.all(
    ['Harbour banner north', 'Harbour banner south'].map(async (title) => (await api(`mutation($input: CreateTaskInput!) { createTask(input: $input) { task { id } } }`, { input: { workspaceId: ws0, title, goal: title, idempotencyKey: key('task') } })).createTask.task.id as string),
  );
  await prisma().taskObjectRef.createMany({ data: tasks.map((x) => ({ taskId: raw(x), objectId: raw(flow) })) });
  await prisma().task.updateMany({ where: { id: { in: tasks.map(raw) } }, data: { status: 'WAITING' } });
  const asked = await send('make it warmer', { objectId: flow });
  assert.equal(asked.route.outcome, 'CLARIFY', 'a question asks which task the message is for');
  const routeQuestion = asked.approval.id as string;

  // Forgetting the brand colour: its card lists the brief; approved, the value is removed from it.
  const brand = await prisma().memory.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, subjectKey: 'brand.colors' } });
  const forget = (await api(`mutation($input: ForgetMemoryInput!) { forgetMemory(input: $input) { approval { id works { object { id } } } } }`, { input: { memoryId: toGlobalId('Memory', brand.id) } })).forgetMemory.approval;
  await api(`mutation($input: ResolveApprovalInput!) { resolveApproval(input: $input) { approval { id status } } }`, { input: { approvalId: forget.id, decision: 'APPROVE', idempotencyKey: key('forget') } });
  await api(`mutation($input: RedactWorksInput!) { redactWorks(input: $input) { approval { id works { status } } } }`, {
    input: { approvalId: forget.id, objectIds: forget.works.map((w: { object: { id: string } }) => w.object.id), idempotencyKey: key('redact') },
  });
  const other = await prisma().memory.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, NOT: { subjectKey: 'brand.colors' } } });
  await api(`mutation($input: CorrectMemoryInput!) { correctMemory(input: $input) { memory { id } versionNumber } }`, { input: { memoryId: toGlobalId('Memory', other.id), value: 'muted earthy palettes', idempotencyKey: key('correct') } });
  const del = (await api(`mutation($id: ID!) { deleteObject(objectId: $id) { approval { id status } object { id } } }`, { id: flow })).deleteObject;
  const evidence = await prisma().memoryEvidence.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, status: 'ACTIVE' } });
  const message = (await api(`query($id: ID!) { workspace(id: $id) { mainThread { id messages(first: 1) { edges { node { id } } } } } }`, { id: ws0 })).workspace.mainThread;
  const otherTask = (await http(`mutation($input: CreateTaskInput!) { createTask(input: $input) { task { id } } }`, { input: { workspaceId: toGlobalId('Workspace', t.b.workspaceId), title: 'beta' } }, t.b.ownerToken, t.url)).data as any;

  const intro = await api(getIntrospectionQuery(), {}, 'introspection');
  schema = buildClientSchema(intro as IntrospectionQuery);
  const checklistVersion = (await api(`query($id: ID!) { task(id: $id) { checklist { version } } }`, { id: tasks[0] })).task.checklist?.version ?? 0;
  setSeeded({
    schema,
    checklistVersion,
    otherWorkspaceTask: otherTask.createTask.task.id,
    // Kinds of ids this walk has no object of (e.g. a webhook endpoint) stand as ids of nothing: only
    // the refused id matters, the others need only be well formed.
    seeds: new Proxy({
      Workspace: ws0,
      Task: tasks[0]!,
      Task2: tasks[1]!,
      Message: message.messages.edges[0].node.id,
      WorkspaceObject: doc,
      Flow: flow,
      Approval: del.approval.id,
      ForgetApproval: forget.id,
      Memory: toGlobalId('Memory', other.id),
      MemoryEvidence: toGlobalId('MemoryEvidence', evidence.id),
      Thread: message.id,
      User: toGlobalId('User', t.a.ownerId),
      Card: routeQuestion,
    } as Record<string, string>, { get: (o, k) => o[String(k)] ?? toGlobalId(String(k), NOBODY) }),
  });
});

after(async () => {
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// Selections generated from the schema

/** Arguments a field cannot go without, by "Type.field". */
const REQUIRED_ARGS: Record<string, string> = { 'WorkspaceObject.version': '(n: 1)', 'Task.planImpact': '(changed: [])' };

const isNode = (type: GraphQLObjectType) => type.getInterfaces().some((i) => i.name === 'Node');

/**
 * Every field of `type` (deprecated ones too): leaves by name, nodes below the top as `id` (they are
 * walked by node(id) on their own), other objects expanded.
 */
function selection(type: GraphQLObjectType, top: boolean, seen: readonly string[] = []): string {
  if (!top && isNode(type)) return '{ __typename id }';
  const parts: string[] = ['__typename'];
  for (const f of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
    const named = getNamedType(f.type);
    if (isRawPayload(type, f.name)) continue;
    const args = REQUIRED_ARGS[`${type.name}.${f.name}`] ?? '';
    if (!args && f.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) throw new Error(`${type.name}.${f.name} needs arguments: add them to REQUIRED_ARGS`);
    if (isLeafType(named)) parts.push(`${f.name}${args}`);
    else if (isObjectType(named)) {
      if (seen.includes(named.name) && !isNode(named)) continue; // a value type inside itself (none today)
      parts.push(`${f.name}${args} ${selection(named, false, [...seen, type.name])}`);
    } else if (isAbstractType(named)) {
      const inner = schema.getPossibleTypes(named).map((p) => `... on ${p.name} ${selection(p, false, [...seen, type.name])}`);
      parts.push(`${f.name}${args} { __typename ${inner.join(' ')} }`);
    }
  }
  return `{ ${parts.join(' ')} }`;
}

/** Every string in a value, with its path. */
function* strings(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, `${path}[${i}]`);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* strings(v, `${path}.${k}`);
}

/** Global ids of nodes in an answer: the `id` of every object whose __typename is a Node type. */
function* nodeIds(value: unknown): Generator<string> {
  if (Array.isArray(value)) for (const v of value) yield* nodeIds(v);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const type = typeof o.__typename === 'string' ? schema.getType(o.__typename) : null;
    if (type && isObjectType(type) && isNode(type) && typeof o.id === 'string') yield o.id;
    for (const v of Object.values(o)) yield* nodeIds(v);
  }
}

/**
 * Every value of a field the schema types ID (read by each object's __typename), with its path and
 * the object's type. JSON values are not walked here: the raw-UUID check covers them.
 */
function* idFields(value: unknown, path: string): Generator<[string, string, unknown]> {
  if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* idFields(v, `${path}[${i}]`);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const type = typeof o.__typename === 'string' ? schema.getType(o.__typename) : null;
    for (const [k, v] of Object.entries(o)) {
      const field = type && isObjectType(type) ? type.getFields()[k] : undefined;
      // An object selected without __typename (the root of an answer) is walked through.
      if (!field) {
        if (!type) yield* idFields(v, `${path}.${k}`);
        continue;
      }
      const named = getNamedType(field.type);
      if (named.name === 'ID') yield [`${path}.${k}`, type!.name, v];
      else if (!isLeafType(named)) yield* idFields(v, `${path}.${k}`);
    }
  }
}

describe('every id in the output is a global id', () => {
  const walked = new Set<string>();
  const typesWalked = new Set<string>();

  before(async () => {
    const root = schema.getQueryType()!;
    const viewer = getNamedType(root.getFields().viewer!.type) as GraphQLObjectType;
    const workspace = getNamedType(root.getFields().workspace!.type) as GraphQLObjectType;
    const queue: string[] = [];
    const read = async (what: string, query: string, variables: Record<string, unknown>) => {
      const data = await api(query, variables, what);
      for (const id of nodeIds(data)) if (!walked.has(id)) (walked.add(id), queue.push(id));
      for (const [, v] of strings(data, '')) void v;
      collectTypes(data);
    };
    const collectTypes = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(collectTypes);
      else if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (typeof o.__typename === 'string') typesWalked.add(o.__typename);
        Object.values(o).forEach(collectTypes);
      }
    };
    await read('viewer', `query { viewer ${selection(viewer, true)} }`, {});
    await read('workspace', `query($id: ID!) { workspace(id: $id) ${selection(workspace, true)} }`, { id: ws0 });
    walked.add(ws0);
    while (queue.length) {
      const id = queue.shift()!;
      const type = schema.getType(fromGlobalId(id).type);
      assert.ok(type && isObjectType(type), `${id} decodes to a type of the schema (${fromGlobalId(id).type})`);
      await read(`node ${fromGlobalId(id).type}`, `query($id: ID!) { node(id: $id) { __typename ... on ${type.name} ${selection(type, true)} } }`, { id });
    }
  });

  test('the walk reached every kind of thing the workspace holds', () => {
    for (const name of ['Task', 'Approval', 'ApprovalOption', 'WorkspaceObject', 'ObjectVersion', 'ChecklistItem', 'GenerationJob', 'Message', 'RouteDecision', 'Memory', 'MemoryEvidence', 'MemoryVersion', 'ForgetWork', 'ChangeNotice', 'ToolCall', 'InboxItem', 'Card']) {
      assert.ok(typesWalked.has(name), `no ${name} was walked (walked: ${[...typesWalked].sort().join(', ')})`);
    }
    assert.ok(walked.size > 20, `${walked.size} nodes walked`);
  });

  test('no answer holds a raw UUID anywhere: not in ids, texts, JSON or mutation payloads', () => {
    const found: string[] = [];
    for (const a of answers) {
      if (a.what === 'introspection') continue;
      for (const [path, s] of strings(a.data, '')) if (rawUuidIn(s)) found.push(`${a.what}: ${path} = ${s.slice(0, 160)}`);
    }
    assert.deepEqual([...new Set(found.map((f) => f.replace(/\[\d+\]/g, '[]').replace(/ = .*/, '')))].sort(), [], `${found.length} raw UUIDs, e.g.\n${found.slice(0, 30).join('\n')}`);
  });

  test('every field typed ID holds a global id; a node\'s own id names its type', () => {
    const bad: string[] = [];
    let seen = 0;
    for (const a of answers) {
      if (a.what === 'introspection') continue;
      for (const [path, owner, v] of idFields(a.data, '')) {
        for (const id of Array.isArray(v) ? v : [v]) {
          if (id === null) continue;
          seen++;
          const { type, id: inner } = typeof id === 'string' ? fromGlobalId(id) : { type: '', id: '' };
          if (!/^[A-Z][A-Za-z0-9]*$/.test(type) || !inner) bad.push(`${a.what}: ${path} = ${String(id)}`);
          else if (path.endsWith('.id') && isNode(schema.getType(owner) as GraphQLObjectType) && type !== owner) bad.push(`${a.what}: ${path} = ${type}:…, not ${owner}`);
        }
      }
    }
    assert.ok(seen > 100, `${seen} ids checked`);
    assert.deepEqual(bad, []);
  });
});

// ---------------------------------------------------------------------------------------------
// Every ID argument refuses raw UUIDs and garbage

describe('every argument and input field typed ID refuses a raw UUID and garbage, naming itself', () => {
  const targets: Target[] = [];
  before(async () => {
    for (const [op, type] of [
      ['query', schema.getQueryType()],
      ['mutation', schema.getMutationType()],
      ['subscription', schema.getSubscriptionType()],
    ] as const) {
      for (const f of Object.values(type!.getFields())) targets.push(...targetsOf(op, type!, f, []));
    }
    const paths = pathsToTypes();
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__') || [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].includes(type)) continue;
      const withArgs = Object.values(type.getFields()).filter((f) => f.args.some((a) => getNamedType(a.type).name === 'ID' || a.type.toString().includes('Input')));
      if (!withArgs.length) continue;
      let reached: Segment[] | undefined;
      for (const path of paths.get(type.name) ?? []) {
        const r = await http(`query { ${wrap(path, '__typename')} }`, {}, t.a.ownerToken, t.url);
        if (!r.errors.length && reaches(r.data, path.map((s) => s.name))) {
          reached = path;
          break;
        }
      }
      assert.ok(reached, `no path reaches a ${type.name}`);
      for (const f of withArgs) targets.push(...targetsOf('query', type, f, reached));
    }
  });

  test('raw UUIDs and garbage are BAD_USER_INPUT with a sentence naming the argument, over HTTP and graphql-ws', async () => {
    const idTargets = targets.filter((x) => getNamedType(x.type).name === 'ID' && x.inner.every((p) => typeof p === 'string' || p === 0));
    assert.ok(idTargets.length >= 30, `${idTargets.length} id positions found`);
    const failures: string[] = [];
    const client = wsClient(t.url, t.a.ownerToken);
    try {
      for (const x of idTargets) {
        const kind = idKind(x.coord, x.name, getNamedType(x.field.type).name);
        const valid = validValue(x.type, x.coord, x.name, getNamedType(x.field.type).name);
        const validOne = (Array.isArray(valid) ? valid[0] : valid) as string | undefined;
        const rawUuid = validOne && typeof validOne === 'string' ? raw(validOne) : NOBODY;
        assert.match(rawUuid, UUID, `${label(x)}: a real ${kind} to take the UUID of`);
        const isList = x.type.toString().includes('[');
        for (const [what, bad] of [
          ['raw UUID', rawUuid],
          ['garbage', 'not-an-id'],
        ] as const) {
          const { query, variables } = operation(x, isList ? [bad] : bad);
          const o = x.op === 'subscription' ? await ws(client, query, variables, x.op) : await http(query, variables, t.a.ownerToken, t.url);
          const e = o.errors[0];
          if (!e) failures.push(`${label(x)} = ${what}: accepted`);
          else if (e.extensions?.code !== 'BAD_USER_INPUT') failures.push(`${label(x)} = ${what}: ${e.extensions?.code} ${e.message}`);
          else if (!e.message.includes(x.name)) failures.push(`${label(x)} = ${what}: "${e.message}" does not name ${x.name}`);
        }
      }
    } finally {
      await client.dispose();
    }
    assert.deepEqual(failures, []);
  });
});
