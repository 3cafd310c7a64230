// The MCP tool bus end to end: a workspace registers MCP servers (the registry's service, real
// discovery), a scripted model calls their tools in tasks run by a real worker, and the servers are
// real: the SDK reference server `server-everything` over stdio and Streamable HTTP, and a test
// server of our own (test/fixtures/mcp-test-server.ts) that counts what really ran.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { createTask } from '../server/services/tasks/create-task.ts';
import { signalTask } from '../server/services/tasks/signal-task.ts';
import { resolveApproval } from '../server/services/approvals/resolve-approval.ts';
import { registerMcpServer } from '../server/services/mcp/register-server.ts';
import { updateMcpServer } from '../server/services/mcp/update-server.ts';
import type { Viewer } from '../server/auth/viewer.ts';
import { ScriptedChatModel, type ScriptStep } from '../server/runtime/models/scripted-model.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { discoverMcpServer, programChecksum, toolSchemaHash } from '../server/runtime/mcp/discover.ts';
import { refreshMcpServer } from '../server/services/mcp/refresh-server.ts';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { IDEMPOTENCY_META_KEY, pinDifference } from '../server/runtime/mcp/bus.ts';
import { modelToolName } from '../server/runtime/mcp/names.ts';
import { effectiveSafety, type McpEffectiveSafety, type McpToolAnnotations, type McpToolOverride } from '../server/domain/mcp-safety.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { holdsFor, waitFor } from './helpers/wait.ts';
import { freePort } from './helpers/process.ts';
import { gqlOk, toGlobalId } from './helpers/clients.ts';
import { parse, type DocumentNode } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { startMcpTestServer, type McpTestServer } from './fixtures/mcp-test-server.ts';

const EVERYTHING = new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url).pathname;

/** What the model does in a task: its first call, then complete with what the tool said. */
type Plan = { call: { name: string; args: Record<string, unknown> } };
const plans = new Map<string, Plan>();

function planOf(messages: BaseMessage[]): Plan | undefined {
  const text = messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
  for (const [marker, p] of plans) if (text.includes(marker)) return p;
  return undefined;
}

const model = new ScriptedChatModel(({ messages }): ScriptStep => {
  const plan = planOf(messages);
  const results = messages.filter((m): m is ToolMessage => m instanceof ToolMessage);
  if (!plan) return { content: 'nothing to do', toolCalls: [{ name: 'complete_task', args: { summary: 'nothing' } }] };
  if (!results.length) return { content: 'calling', toolCalls: [{ name: plan.call.name, args: plan.call.args }] };
  return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: String(results.at(-1)!.content).slice(0, 200) } }] };
});

let t: TestApp;
let viewer: Viewer;
let srv: McpTestServer;
let shapeSrv: McpTestServer;
let everythingHttp: ChildProcess | undefined;
let counter = 0;

async function runTask(call: Plan['call'], opts: { wait?: 'COMPLETED' | 'WAITING' | 'RUNNING' | null } = {}) {
  const marker = `mcp-case-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
  plans.set(marker, { call });
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: marker });
  const wait = opts.wait === undefined ? 'COMPLETED' : opts.wait;
  if (wait) await waitFor(async () => (await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status === wait, `task ${marker} ${wait}`, { timeoutMs: 30_000 });
  return { taskId: task.id, marker };
}

const callsOf = (taskId: string) => t.app.deps.prisma.toolCall.findMany({ where: { taskId }, orderBy: [{ stepIndex: 'asc' }, { callIndex: 'asc' }] });

/** The tool messages the model received in the task's steps (what a result looked like to it). */
function toolMessagesFor(marker: string): string[] {
  const out: string[] = [];
  for (const msgs of model.received) {
    const text = msgs.map((m) => String(m.content)).join('\n');
    if (!text.includes(marker)) continue;
    for (const m of msgs) if (m instanceof ToolMessage) out.push(String(m.content));
  }
  return out;
}

before(async () => {
  srv = await startMcpTestServer();
  shapeSrv = await startMcpTestServer();
  t = await startTestApp(
    'mcpbus',
    {
      runtime: { leaseMs: 1500, watchdogMs: 100, staleQueuedMs: 300, workerConcurrency: 3, maxStepsPerTurn: 12, maxTurnsPerTask: 25, plugin: undefined },
      mcp: { stdioCommands: [process.execPath] },
    },
    { models: scriptedProvider(model) },
    { worker: { concurrency: 3 } },
  );
  viewer = { userId: t.a.ownerId, credentialId: 'test', principal: 'HUMAN', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) } as Viewer;
  await registerMcpServer(t.app.deps, viewer, { workspaceId: t.a.workspaceId, name: 'tst', title: 'Test server', transport: 'HTTP', url: srv.url, authSecret: 'token-123' });
  await registerMcpServer(t.app.deps, viewer, { workspaceId: t.a.workspaceId, name: 'shp', title: 'Shape server', transport: 'HTTP', url: shapeSrv.url });
});

after(async () => {
  everythingHttp?.kill('SIGKILL');
  await t?.close();
  await srv?.close();
  await shapeSrv?.close();
});

describe('safety classes (pure)', () => {
  const cases: [string, McpToolAnnotations | undefined, McpToolOverride | undefined, 'TRUSTED' | 'UNTRUSTED', McpEffectiveSafety][] = [
    ['no hints', undefined, undefined, 'TRUSTED', { safety: 'AT_MOST_ONCE', destructive: false, needsApproval: false }],
    ['read-only', { readOnlyHint: true }, undefined, 'TRUSTED', { safety: 'READ_ONLY', destructive: false, needsApproval: false }],
    ['idempotent', { idempotentHint: true }, undefined, 'TRUSTED', { safety: 'IDEMPOTENT', destructive: false, needsApproval: false }],
    ['read-only wins over idempotent', { readOnlyHint: true, idempotentHint: true }, undefined, 'TRUSTED', { safety: 'READ_ONLY', destructive: false, needsApproval: false }],
    ['destructive asks first', { destructiveHint: true }, undefined, 'TRUSTED', { safety: 'AT_MOST_ONCE', destructive: true, needsApproval: true }],
    ['a read-only tool destroys nothing', { readOnlyHint: true, destructiveHint: true }, undefined, 'TRUSTED', { safety: 'READ_ONLY', destructive: false, needsApproval: false }],
    ['override safety wins', { readOnlyHint: true }, { safety: 'AT_MOST_ONCE' }, 'TRUSTED', { safety: 'AT_MOST_ONCE', destructive: false, needsApproval: false }],
    ['override marks destructive', { idempotentHint: true }, { destructive: true }, 'TRUSTED', { safety: 'IDEMPOTENT', destructive: true, needsApproval: true }],
    ['override clears destructive', { destructiveHint: true }, { destructive: false }, 'TRUSTED', { safety: 'AT_MOST_ONCE', destructive: false, needsApproval: false }],
    ['untrusted read-only runs', { readOnlyHint: true }, undefined, 'UNTRUSTED', { safety: 'READ_ONLY', destructive: false, needsApproval: false }],
    ['untrusted idempotent asks', { idempotentHint: true }, undefined, 'UNTRUSTED', { safety: 'IDEMPOTENT', destructive: false, needsApproval: true }],
    ['untrusted, owner says read-only', undefined, { safety: 'READ_ONLY' }, 'UNTRUSTED', { safety: 'READ_ONLY', destructive: false, needsApproval: false }],
  ];
  for (const [name, annotations, override, trust, expected] of cases) {
    test(name, () => assert.deepEqual(effectiveSafety(annotations, override, trust), expected));
  }
});

describe('discovery', () => {
  test('names fit the registry rule and stay distinct', () => {
    const taken = new Set<string>();
    const a = modelToolName('evs', 'get-sum', taken);
    const b = modelToolName('evs', 'get_sum', taken);
    const c = modelToolName('evs', 'X'.repeat(80), taken);
    for (const n of [a, b, c]) assert.match(n, /^[a-z][a-z0-9_]{0,63}$/);
    assert.equal(a, 'evs__get_sum');
    assert.notEqual(a, b);
  });

  test('the pin of the reference server over stdio lists its tools with their hashes', async () => {
    const pin = await discoverMcpServer({ transport: 'STDIO', url: null, command: process.execPath, args: [EVERYTHING, 'stdio'], authSecret: null });
    assert.ok(pin.serverName.length > 0 && pin.serverVersion.length > 0 && pin.protocolVersion.length > 0);
    const echo = pin.tools.find((x) => x.name === 'echo');
    assert.ok(echo, 'echo is listed');
    const { schemaHash, ...rest } = echo;
    assert.equal(schemaHash, toolSchemaHash(rest));
  });

  test('an unreachable server is a sentence, not a stack', async () => {
    const port = await freePort();
    await assert.rejects(discoverMcpServer({ transport: 'HTTP', url: `http://127.0.0.1:${port}/mcp`, command: null, args: [], authSecret: null }, { timeoutMs: 3000 }), (e: Error) => e.name === 'McpUnreachable' && /could not be reached/.test(e.message));
  });
});

describe('calls in tasks', () => {
  test('the agent calls an MCP tool; the result reaches the model; the key arrives in _meta; the bearer token is sent', async () => {
    const { taskId, marker } = await runTask({ name: 'tst__echo', args: { text: 'hello bus' } });
    const [call] = await callsOf(taskId);
    assert.equal(call!.status, 'DONE');
    assert.equal(call!.safety, 'READ_ONLY');
    assert.ok(toolMessagesFor(marker).some((m) => m.includes('hello bus')), 'the model read the echo');
    assert.equal(srv.state.metas.echo!.at(-1)![IDEMPOTENCY_META_KEY], call!.id);
    assert.ok(srv.state.authorizations.has('Bearer token-123'));
    assert.ok(model.receivedTools.some((names) => names.includes('tst__echo')), 'the tool was offered');
  });

  test('structured content reaches the model beside the text', async () => {
    const { taskId } = await runTask({ name: 'tst__add', args: { a: 2, b: 40 } });
    const [call] = await callsOf(taskId);
    assert.deepEqual((call!.result as { structured?: unknown }).structured, { sum: 42 });
  });

  test('invalid input never reaches the server', async () => {
    const before = srv.state.runs.add ?? 0;
    const { taskId, marker } = await runTask({ name: 'tst__add', args: { a: 'two', b: 40 } });
    const [call] = await callsOf(taskId);
    assert.equal(call!.status, 'FAILED');
    assert.match(call!.error ?? '', /invalid input/);
    assert.equal(srv.state.runs.add ?? 0, before);
    assert.ok(toolMessagesFor(marker).length > 0, 'the model read the refusal');
  });

  test('an isError result is a failed call the model reads, and the task goes on', async () => {
    const { taskId, marker } = await runTask({ name: 'tst__fail', args: { why: 'testing' } });
    const [call] = await callsOf(taskId);
    assert.equal(call!.status, 'FAILED');
    assert.match(call!.error ?? '', /failed on purpose: testing/);
    assert.ok(toolMessagesFor(marker).some((m) => m.includes('failed on purpose')));
  });

  test('a destructive tool waits for a person: the card first, nothing runs until approved', async () => {
    const before = srv.state.runs.wipe ?? 0;
    const { taskId } = await runTask({ name: 'tst__wipe', args: { target: 'drafts' } }, { wait: 'WAITING' });
    const card = await waitFor(() => t.app.deps.prisma.approval.findFirst({ where: { taskId, kind: 'IRREVERSIBLE', status: 'PENDING' } }), 'the card');
    assert.equal((card.action as { type: string }).type, 'MCP_TOOL_CALL');
    const [pending] = await callsOf(taskId);
    assert.equal(pending!.status, 'PENDING', 'the call is not started while it waits');
    await holdsFor(() => (srv.state.runs.wipe ?? 0) === before, 'nothing ran before the decision', 300);
    await resolveApproval(t.app.deps, viewer, { approvalId: card.id, decision: 'APPROVE', idempotencyKey: `approve-${card.id}` });
    await waitFor(async () => (await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: taskId } })).status === 'COMPLETED', 'completed after approval', { timeoutMs: 30_000 });
    assert.equal((srv.state.runs.wipe ?? 0) - before, 1);
  });

  test('a priced call holds its price before and is charged once after', async () => {
    const s = await t.app.deps.prisma.mcpServer.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, name: 'tst' } });
    await updateMcpServer(t.app.deps, viewer, { serverId: s.id, baseVersion: s.version, toolOverrides: [{ tool: 'record', priceCents: 30 }] });
    t.app.deps.runtime.mcp!.invalidate();
    const before = srv.state.runs.record ?? 0;
    const { taskId } = await runTask({ name: 'tst__record', args: { value: 'paid' } });
    const entries = await t.app.deps.prisma.ledgerEntry.findMany({ where: { taskId } });
    assert.deepEqual(entries.map((e) => [e.kind, e.amountCents]).sort(), [['CHARGE', 30], ['HOLD', 30]]);
    assert.equal((srv.state.runs.record ?? 0) - before, 1);
  });

  test('long calls report progress as task events; cancelling the task cancels the call at the server', async () => {
    const { taskId } = await runTask({ name: 'tst__slow', args: { steps: 200, stepMs: 100 } }, { wait: null });
    await waitFor(() => (srv.state.running.slow ?? 0) > 0, 'the slow call runs');
    await waitFor(() => t.app.deps.prisma.taskEvent.findFirst({ where: { taskId, type: 'TOOL_PROGRESS' } }), 'a progress event');
    await signalTask(t.app.deps, viewer, { taskId, signal: 'CANCEL' });
    await waitFor(() => srv.state.cancelled.includes('slow'), 'the server saw notifications/cancelled', { timeoutMs: 15_000 });
  });

  test('a changed tool schema quarantines the server and its tools are no longer offered', async () => {
    const first = await runTask({ name: 'shp__shape', args: { text: 'a' } });
    assert.equal((await callsOf(first.taskId))[0]!.status, 'DONE');
    shapeSrv.changeShape();
    await waitFor(async () => (await t.app.deps.prisma.mcpServer.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, name: 'shp' } })).status === 'QUARANTINED', 'quarantined');
    const card = await t.app.deps.prisma.approval.findFirst({ where: { workspaceId: t.a.workspaceId, status: 'PENDING', taskId: null } });
    assert.ok(card, 'the owners got a card');
    const runsBefore = shapeSrv.state.runs.shape ?? 0;
    const calls0 = model.calls;
    const second = await runTask({ name: 'shp__shape', args: { text: 'b' } });
    const offered = model.receivedTools.slice(calls0);
    assert.ok(offered.length > 0 && offered.every((names) => !names.includes('shp__shape')), 'not offered any more');
    assert.ok(offered.some((names) => names.includes('tst__echo')), 'the other server still is');
    const [call] = await callsOf(second.taskId);
    assert.equal(call!.status, 'FAILED');
    assert.equal(shapeSrv.state.runs.shape ?? 0, runsBefore);
  });
});

/** Sets the test server's price overrides (the whole list) and makes the bus read them now. */
async function priceTools(overrides: { tool: string; priceCents: number }[], name = 'tst') {
  const s = await t.app.deps.prisma.mcpServer.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, name } });
  await updateMcpServer(t.app.deps, viewer, { serverId: s.id, baseVersion: s.version, toolOverrides: overrides });
  t.app.deps.runtime.mcp!.invalidate();
}

const ledgerOf = (taskId: string) => t.app.deps.prisma.ledgerEntry.findMany({ where: { taskId }, orderBy: { createdAt: 'asc' } });

/** holds = charges + releases: every hold settled exactly once with its amount, none left held. */
async function assertSettled(taskId: string) {
  const ledger = await ledgerOf(taskId);
  const holds = ledger.filter((e) => e.kind === 'HOLD');
  for (const h of holds) {
    const settled = ledger.filter((e) => e.jobId === h.jobId && e.kind !== 'HOLD');
    assert.equal(settled.length, 1, 'each hold is settled exactly once');
    assert.equal(settled[0]!.amountCents, h.amountCents);
  }
  const sum = (k: string) => ledger.filter((e) => e.kind === k).reduce((a, e) => a + e.amountCents, 0);
  assert.equal(sum('HOLD'), sum('CHARGE') + sum('RELEASE'));
  return ledger;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const doc = (q: string) => parse(q) as DocumentNode as TypedDocumentNode<any, any>;
const MCP_EVENTS = doc(`query($id: ID!, $types: [TaskEventType!]) {
  task: node(id: $id) { ... on Task { events(first: 50, types: $types) { edges { node {
    __typename type
    ... on ToolProgressEvent { callId tool progress message }
    ... on McpServerQuarantinedEvent { tool reason }
    ... on ToolTaskStartedEvent { callId tool mcpTask }
  } } } } } }`);
async function eventsOf(taskId: string, types: string[]) {
  const d = await gqlOk(t.url, t.a.ownerToken, MCP_EVENTS, { id: toGlobalId('Task', taskId), types });
  return (d.task.events.edges as { node: Record<string, unknown> }[]).map((e) => e.node);
}

describe('money on every path', () => {
  test('an isError answer releases the hold; the model reads that nothing was charged', async () => {
    await priceTools([{ tool: 'fail', priceCents: 20 }]);
    const { taskId, marker } = await runTask({ name: 'tst__fail', args: { why: 'priced' } });
    const [call] = await callsOf(taskId);
    assert.equal(call!.status, 'FAILED');
    assert.match(call!.error ?? '', /Nothing was charged/);
    assert.ok(toolMessagesFor(marker).some((m) => m.includes('Nothing was charged')));
    const ledger = await assertSettled(taskId);
    assert.deepEqual(ledger.map((e) => [e.kind, e.amountCents]), [['HOLD', 20], ['RELEASE', 20]]);
  });

  test('a call cancelled while at the server is charged once (it may have done the work); the task ends with nothing held', async () => {
    await priceTools([{ tool: 'slow', priceCents: 40 }]);
    const { taskId } = await runTask({ name: 'tst__slow', args: { steps: 200, stepMs: 100 } }, { wait: null });
    await waitFor(() => t.app.deps.prisma.taskEvent.findFirst({ where: { taskId, type: 'TOOL_PROGRESS' } }), 'the slow call reports progress');
    await signalTask(t.app.deps, viewer, { taskId, signal: 'CANCEL' });
    const ledger = await waitFor(async () => {
      const l = await ledgerOf(taskId);
      return l.some((e) => e.kind !== 'HOLD') ? l : null;
    }, 'the hold settled', { timeoutMs: 15_000 });
    assert.deepEqual(ledger.map((e) => [e.kind, e.amountCents]), [['HOLD', 40], ['CHARGE', 40]]);
    assert.match(ledger[1]!.reason, /interrupted/);
    await assertSettled(taskId);
    // Progress read back through the API, typed.
    const progress = await eventsOf(taskId, ['TOOL_PROGRESS']);
    assert.ok(progress.length > 0);
    for (const e of progress) {
      assert.equal(e.__typename, 'ToolProgressEvent');
      assert.equal(e.tool, 'tst__slow');
      assert.ok(typeof e.progress === 'number' && e.progress > 0 && e.progress <= 1);
      assert.match(String(e.message), /^step \d+ of 200$/);
      assert.ok(typeof e.callId === 'string' && e.callId.length > 0);
    }
  });

  test('a priced call above the confirmation-free amount: a PAID_ACTION card first, nothing runs or is held until approved, then one charge', async () => {
    await priceTools([{ tool: 'echo', priceCents: 150 }]);
    const before = srv.state.runs.echo ?? 0;
    const { taskId } = await runTask({ name: 'tst__echo', args: { text: 'worth it' } }, { wait: 'WAITING' });
    const card = await waitFor(() => t.app.deps.prisma.approval.findFirst({ where: { taskId, kind: 'PAID_ACTION', status: 'PENDING' } }), 'the price card');
    assert.equal(card.quoteCents, 150);
    assert.equal((await callsOf(taskId))[0]!.status, 'PENDING', 'the call is not started while it waits');
    await holdsFor(async () => (srv.state.runs.echo ?? 0) === before && (await ledgerOf(taskId)).length === 0, 'nothing ran, nothing held', 300);
    await resolveApproval(t.app.deps, viewer, { approvalId: card.id, decision: 'APPROVE', idempotencyKey: `approve-${card.id}` });
    await waitFor(async () => (await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: taskId } })).status === 'COMPLETED', 'completed after approval', { timeoutMs: 30_000 });
    assert.equal((srv.state.runs.echo ?? 0) - before, 1);
    const ledger = await assertSettled(taskId);
    assert.deepEqual(ledger.map((e) => [e.kind, e.amountCents]), [['HOLD', 150], ['CHARGE', 150]]);
    await priceTools([]);
  });

  test('a server unreachable at call time: a readable tool error, nothing sent, nothing charged', async () => {
    const down = await startMcpTestServer();
    await registerMcpServer(t.app.deps, viewer, { workspaceId: t.a.workspaceId, name: 'dwn', title: 'Gone server', transport: 'HTTP', url: down.url, priceCentsPerCall: 10 });
    await down.close();
    t.app.deps.runtime.mcp!.invalidate();
    const { taskId, marker } = await runTask({ name: 'dwn__echo', args: { text: 'anyone?' } });
    const [call] = await callsOf(taskId);
    assert.equal(call!.status, 'FAILED');
    assert.match(call!.error ?? '', /could not be reached.*Nothing was sent\. Nothing was charged\./s);
    assert.doesNotMatch(call!.error ?? '', /at .*\.ts:\d+|Error:/, 'a sentence, not a stack');
    assert.ok(toolMessagesFor(marker).some((m) => m.includes('could not be reached')));
    const ledger = await assertSettled(taskId);
    assert.deepEqual(ledger.map((e) => [e.kind, e.amountCents]), [['HOLD', 10], ['RELEASE', 10]]);
  });
});

describe('people and changes', () => {
  test('an UNTRUSTED server: a call that may change something asks a person first; a read-only one does not', async () => {
    await registerMcpServer(t.app.deps, viewer, { workspaceId: t.a.workspaceId, name: 'unt', title: 'Stranger', transport: 'HTTP', url: srv.url, trust: 'UNTRUSTED' });
    t.app.deps.runtime.mcp!.invalidate();
    const echoes = srv.state.runs.echo ?? 0;
    const read = await runTask({ name: 'unt__echo', args: { text: 'just looking' } });
    assert.equal((await callsOf(read.taskId))[0]!.status, 'DONE');
    assert.equal(await t.app.deps.prisma.approval.count({ where: { taskId: read.taskId } }), 0, 'no card for a read-only call');
    assert.equal((srv.state.runs.echo ?? 0) - echoes, 1);
    const records = srv.state.runs.record ?? 0;
    const write = await runTask({ name: 'unt__record', args: { value: 'from a stranger' } }, { wait: 'WAITING' });
    const card = await waitFor(() => t.app.deps.prisma.approval.findFirst({ where: { taskId: write.taskId, kind: 'IRREVERSIBLE', status: 'PENDING' } }), 'the card');
    assert.match(JSON.stringify(card.reasons), /not trusted/);
    assert.equal((await callsOf(write.taskId))[0]!.status, 'PENDING');
    await holdsFor(() => (srv.state.runs.record ?? 0) === records, 'nothing sent before the decision', 300);
    await resolveApproval(t.app.deps, viewer, { approvalId: card.id, decision: 'REJECT', idempotencyKey: `reject-${card.id}` });
    await waitFor(async () => (await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: write.taskId } })).status === 'COMPLETED', 'completed after the refusal', { timeoutMs: 30_000 });
    assert.equal(srv.state.runs.record ?? 0, records, 'a refused call is never sent');
  });

  test('a server found changed when a task connects: MCP_SERVER_QUARANTINED on the task, typed through the API', async () => {
    const ver = await startMcpTestServer();
    try {
      const reg = await registerMcpServer(t.app.deps, viewer, { workspaceId: t.a.workspaceId, name: 'ver', title: 'Versioned', transport: 'HTTP', url: ver.url });
      ver.setVersion('1.1.0');
      // A change of the record makes the bus connect afresh, where it sees the new version.
      await updateMcpServer(t.app.deps, viewer, { serverId: reg.id, baseVersion: reg.version, title: 'Versioned server' });
      t.app.deps.runtime.mcp!.invalidate();
      const { taskId } = await runTask({ name: 'ver__echo', args: { text: 'x' } });
      const events = await eventsOf(taskId, ['MCP_SERVER_QUARANTINED']);
      assert.equal(events.length, 1);
      assert.equal(events[0]!.__typename, 'McpServerQuarantinedEvent');
      assert.match(String(events[0]!.reason), /version 1\.0\.0 → 1\.1\.0/);
      assert.equal(ver.state.runs.echo ?? 0, 0, 'nothing was called on the changed server');
    } finally {
      await ver.close();
    }
  });
});

describe('MCP tasks', () => {
  test('a tool the server runs as a task: its id is recorded on the log before the wait, the task is followed to its result', async () => {
    const { taskId, marker } = await runTask({ name: 'tst__longtask', args: { value: 'render', ms: 300 } });
    const [call] = await callsOf(taskId);
    assert.equal(call!.status, 'DONE');
    assert.ok(toolMessagesFor(marker).some((m) => m.includes('finished render')), 'the task\'s result reached the model');
    const [started] = await eventsOf(taskId, ['TOOL_TASK_STARTED']);
    assert.equal(started!.__typename, 'ToolTaskStartedEvent');
    assert.equal(started!.mcpTask, srv.state.tasks.at(-1));
    assert.equal(started!.tool, 'tst__longtask');
    assert.ok((srv.state.taskPolls[srv.state.tasks.at(-1)!] ?? 0) > 0, 'followed with tasks/get');
    assert.equal(srv.state.metas.longtask!.at(-1)![IDEMPOTENCY_META_KEY], call!.id);
  });
});

describe('in the task\'s language', () => {
  /** A task whose language is German (set before its worker reaches the call). */
  async function germanTask(call: Plan['call'], wait: 'COMPLETED' | 'WAITING') {
    const marker = `mcp-de-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
    plans.set(marker, { call });
    const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: marker });
    await t.app.deps.prisma.task.update({ where: { id: task.id }, data: { language: 'de' } });
    await waitFor(async () => (await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status === wait, `task ${marker} ${wait}`, { timeoutMs: 30_000 });
    return task.id;
  }

  test('a German task: the card before a destructive call and its refusal are German', async () => {
    const taskId = await germanTask({ name: 'tst__wipe', args: { target: 'Entwürfe' } }, 'WAITING');
    const card = await waitFor(() => t.app.deps.prisma.approval.findFirst({ where: { taskId, kind: 'IRREVERSIBLE', status: 'PENDING' } }), 'the card');
    assert.match(card.title, /^Darf der Agent „wipe“ von „Test server“ verwenden\?$/);
    assert.match(JSON.stringify(card.reasons), /zerstörend/);
    await resolveApproval(t.app.deps, viewer, { approvalId: card.id, decision: 'REJECT', idempotencyKey: `reject-${card.id}` });
    await waitFor(async () => (await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: taskId } })).status === 'COMPLETED', 'completed after the refusal', { timeoutMs: 30_000 });
  });

  test('a German task: a failed call and its money are said in German', async () => {
    await priceTools([{ tool: 'fail', priceCents: 20 }]);
    const taskId = await germanTask({ name: 'tst__fail', args: { why: 'Absicht' } }, 'COMPLETED');
    const [call] = await callsOf(taskId);
    assert.match(call!.error ?? '', /^Das Werkzeug meldete einen Fehler: failed on purpose: Absicht Nichts wurde berechnet\.$/);
    await priceTools([]);
  });
});

describe('a server started as a command is pinned to its program files', () => {
  test('the checksum covers the program and the files its arguments name; an edited file quarantines the server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-mcp-program-'));
    try {
      // A script the owner registers (it runs the reference server): editing it changes what runs.
      const script = join(dir, 'server.mjs');
      writeFileSync(script, `process.argv.splice(2, 0, 'stdio');\nawait import(${JSON.stringify(pathToFileURL(EVERYTHING).href)});\n`);
      const endpoint = { transport: 'STDIO' as const, command: process.execPath, args: [script] };
      const before = programChecksum(endpoint);
      assert.match(before ?? '', /^[0-9a-f]{64}$/);
      assert.equal(programChecksum({ transport: 'HTTP', command: null, args: [] }), null, 'nothing to pin over HTTP');
      assert.equal(programChecksum({ ...endpoint, args: [script, '--flag'] }), before, 'arguments that are not files do not count');

      const made = await registerMcpServer(t.app.deps, viewer, { workspaceId: t.a.workspaceId, name: 'prg', title: 'Program pin', transport: 'STDIO', command: process.execPath, args: [script] });
      const pinned = (await t.app.deps.prisma.mcpServer.findFirstOrThrow({ where: { id: made.id } })).pinned as { program?: string };
      assert.equal(pinned.program, before, 'registration pins the program files');
      assert.equal((await refreshMcpServer(t.app.deps, viewer, { serverId: made.id })).status, 'ACTIVE', 'unchanged: stays on');

      appendFileSync(script, '// edited after registration\n');
      assert.notEqual(programChecksum(endpoint), before);
      const after = await refreshMcpServer(t.app.deps, viewer, { serverId: made.id });
      assert.equal(after.status, 'QUARANTINED', 'same version and tools, different program: quarantined');
      assert.match(after.quarantineReason ?? '', /program files changed/);
      assert.match(pinDifference({ serverName: 's', serverVersion: '1', protocolVersion: 'p', tools: [], program: 'a' }, { serverName: 's', serverVersion: '1', protocolVersion: 'p', tools: [], program: 'b' }) ?? '', /program files changed/);
      assert.equal(pinDifference({ serverName: 's', serverVersion: '1', protocolVersion: 'p', tools: [] }, { serverName: 's', serverVersion: '1', protocolVersion: 'p', tools: [], program: 'b' }), null, 'an older pin without program files is not quarantined for it');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the reference server', () => {
  test('over stdio: the agent calls its echo', async () => {
    await registerMcpServer(t.app.deps, viewer, { workspaceId: t.a.workspaceId, name: 'evs', title: 'Everything (stdio)', transport: 'STDIO', command: process.execPath, args: [EVERYTHING, 'stdio'] });
    t.app.deps.runtime.mcp!.invalidate();
    const { taskId, marker } = await runTask({ name: 'evs__echo', args: { message: 'over stdio' } });
    assert.equal((await callsOf(taskId))[0]!.status, 'DONE');
    assert.ok(toolMessagesFor(marker).some((m) => m.includes('over stdio')));
  });

  test('over Streamable HTTP: the agent calls its get-sum', async () => {
    const port = await freePort();
    everythingHttp = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    everythingHttp.stderr!.on('data', (d) => (err += d));
    await waitFor(() => /listening/i.test(err), 'server-everything listens', { timeoutMs: 20_000 });
    await registerMcpServer(t.app.deps, viewer, { workspaceId: t.a.workspaceId, name: 'evh', title: 'Everything (HTTP)', transport: 'HTTP', url: `http://127.0.0.1:${port}/mcp` });
    t.app.deps.runtime.mcp!.invalidate();
    const { taskId, marker } = await runTask({ name: 'evh__get_sum', args: { a: 19, b: 23 } });
    assert.equal((await callsOf(taskId))[0]!.status, 'DONE');
    assert.ok(toolMessagesFor(marker).some((m) => m.includes('42')));
  });
});
