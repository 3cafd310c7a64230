// The runtime through the public API: a task created over GraphQL is run by a worker to its end
// (offline model by default), signals go through signalTask, and tool boundaries validate.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import type { Viewer } from '../server/auth/viewer.ts';
import { runTurn } from '../server/runtime/engine.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { MAX_TOOL_OUTPUT_CHARS } from '../server/runtime/tools/registry.ts';
import { defineTool } from '../server/runtime/tools/types.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { collect, gql, gqlOk, toGlobalId, wsClient } from './helpers/clients.ts';
import { CreateTask, RuntimeInfoQuery, SignalTask, TaskEventsSub, TaskJournal } from './helpers/documents.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { eventually } from './helpers/produce.ts';

describe('offline product path', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('rtapi', { runtime: { leaseMs: 2000, watchdogMs: 500, staleQueuedMs: 5000, workerConcurrency: 2, maxStepsPerTurn: 12, maxTurnsPerTask: 25, plugin: undefined } });
    await t.app.startWorker({ concurrency: 2 });
  });
  after(async () => {
    await t.close();
  });

  test('the API reports the offline model honestly', async () => {
    const d = await gqlOk(t.url, t.a.readToken, RuntimeInfoQuery);
    assert.equal(d.viewer.runtime.model.offline, true);
    assert.equal(d.viewer.runtime.model.provider, 'offline');
    assert.match(d.viewer.runtime.model.description, /no model is configured|offline/i);
    assert.ok(d.viewer.runtime.tools.includes('complete_task'));
  });

  test('a task created over GraphQL runs to completion on a worker; the subscriber sees every step', async () => {
    const d = await gqlOk(t.url, t.a.ownerToken, CreateTask, {
      input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: 'Agenda for the autumn fair meeting', goal: 'three talking points' },
    });
    const c = wsClient(t.url, t.a.ownerToken);
    const s = collect(c, TaskEventsSub, { taskId: d.createTask.task.id, after: 0 });
    await s.collector.until(
      (xs) => xs.some((x) => x.taskEvents.type === 'TASK_STATUS_CHANGED' && (x.taskEvents.payload as { to: string }).to === 'COMPLETED'),
      30_000,
      'COMPLETED',
    );
    const types = s.collector.items.map((x) => x.taskEvents.type);
    for (const expected of ['TASK_CREATED', 'TURN_STARTED', 'STEP_DECIDED', 'TOOL_CALL_STARTED', 'NOTE', 'TOOL_CALL_DONE', 'TURN_ENDED'] as const) {
      assert.ok(types.includes(expected), `${expected} in ${types.join(',')}`);
    }
    const modelCall = s.collector.items.find((x) => x.taskEvents.type === 'MODEL_CALL');
    assert.equal(modelCall?.taskEvents.redacted, true);
    assert.equal(modelCall?.taskEvents.payload, null);
    const task = await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: fromGlobalId(d.createTask.task.id).id } });
    assert.match(task.summary, /offline model/);
    // The journal is readable through the API (read scope suffices), prompts excluded.
    const j = await gqlOk(t.url, t.a.readToken, TaskJournal, { id: d.createTask.task.id });
    assert.equal(j.task.status, 'COMPLETED');
    assert.equal(j.task.turns.length, 1);
    assert.equal(j.task.turns[0]!.generation, 1);
    const [s0, s1] = j.task.turns[0]!.steps;
    assert.equal(s0!.toolCalls[0]!.name, 'add_note');
    assert.equal(s0!.toolCalls[0]!.status, 'DONE');
    assert.deepEqual(fromGlobalId(s0!.toolCalls[0]!.id).type, 'ToolCall');
    assert.match(fromGlobalId(s0!.toolCalls[0]!.id).id, /^[0-9a-f-]{36}:0:0$/, "the global id of the turn's first call");
    assert.match(s1!.message, /offline model/);
    assert.equal(s1!.toolCalls.length, 0);
    s.stop();
    await c.dispose();
  });

  test('signals over GraphQL: REVISE needs text, applies once per key, and a paused task keeps it for later', async () => {
    const d = await gqlOk(t.url, t.a.ownerToken, CreateTask, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: 'to revise' } });
    const taskId = d.createTask.task.id;
    const uuid = fromGlobalId(taskId).id;
    const paused = await gql(t.url, t.a.ownerToken, SignalTask, { input: { taskId, signal: 'PAUSE' } });
    // The worker may have finished this short task already; only a live task can be paused.
    if (paused.errors) {
      assert.equal(paused.errors[0]?.extensions?.code, 'CONFLICT');
      return;
    }
    const missing = await gql(t.url, t.a.ownerToken, SignalTask, { input: { taskId, signal: 'REVISE' } });
    assert.equal(missing.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    for (let i = 0; i < 3; i++) {
      const r = await gql(t.url, t.a.ownerToken, SignalTask, { input: { taskId, signal: 'REVISE', text: 'make it blue', idempotencyKey: 'k1' } });
      assert.equal(r.errors, undefined);
    }
    assert.equal(await t.app.deps.prisma.inboxItem.count({ where: { taskId: uuid, signal: 'REVISE' } }), 1);
    // Not scheduled while paused: a queued turn was stopped at once, a running one stops at its next boundary.
    await eventually(
      async () => (await t.app.deps.prisma.turn.count({ where: { taskId: uuid, status: { in: ['QUEUED', 'RUNNING'] } } })) === 0,
      'no live turn while paused',
    );
    const resumed = await gqlOk(t.url, t.a.ownerToken, SignalTask, { input: { taskId, signal: 'RESUME' } });
    assert.equal(resumed.signalTask.task.status, 'QUEUED');
    const c = wsClient(t.url, t.a.ownerToken);
    const s = collect(c, TaskEventsSub, { taskId, after: 0 });
    await s.collector.until((xs) => xs.some((x) => (x.taskEvents.payload as { to?: string } | null)?.to === 'COMPLETED'), 30_000, 'completed after resume');
    const item = await t.app.deps.prisma.inboxItem.findFirstOrThrow({ where: { taskId: uuid, signal: 'REVISE' } });
    assert.ok(item.consumedTurnId, 'the revision kept for later was read after the resume');
    s.stop();
    await c.dispose();
  });
});

describe('tool boundaries', () => {
  let t: TestApp;
  let viewer: Viewer;
  let ran = 0;
  const big = defineTool({
    name: 'big_output',
    domain: 'core',
    description: 'Returns a large or malformed result.',
    // The right the agent policy requires for it (a tool that is not built in declares its own).
    scope: 'tasks:write',
    input: z.object({ size: z.number().int().min(1), malformed: z.boolean().default(false) }),
    output: z.object({ text: z.string() }),
    safety: 'READ_ONLY',
    async run(input) {
      ran++;
      return (input.malformed ? { text: 42 } : { text: 'x'.repeat(input.size) }) as { text: string };
    },
  });
  const model = new ScriptedChatModel(({ call }) => {
    const plan = [
      { name: 'big_output', args: { size: 'not a number' } }, // invalid input: never runs
      { name: 'big_output', args: { size: 10, malformed: true } }, // invalid output
      { name: 'big_output', args: { size: MAX_TOOL_OUTPUT_CHARS * 2 } }, // stored by reference
      { name: 'no_such_tool', args: {} },
    ];
    const c = plan[call];
    return c ? { content: `try ${call}`, toolCalls: [c] } : { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: 'checked' } }] };
  });
  before(async () => {
    t = await startTestApp('toolbounds', {}, { models: scriptedProvider(model), tools: [big] });
    viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
  });
  after(async () => {
    await t.close();
  });

  test('invalid input never reaches the tool, invalid output fails the call, large output is stored by reference, unknown tools fail', async () => {
    const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: 'bounds' });
    const turn = await t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id } });
    assert.equal((await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' })).outcome, 'completed');
    const calls = await t.app.deps.prisma.toolCall.findMany({ where: { taskId: task.id }, orderBy: { stepIndex: 'asc' } });
    assert.deepEqual(calls.map((c) => [c.name, c.status]), [
      ['big_output', 'FAILED'],
      ['big_output', 'FAILED'],
      ['big_output', 'DONE'],
      ['no_such_tool', 'FAILED'],
      ['complete_task', 'DONE'],
    ]);
    assert.equal(ran, 2, 'the invalid-input call never ran the tool');
    assert.match(calls[0]!.error!, /invalid input for big_output/);
    assert.match(calls[1]!.error!, /invalid result/);
    const ref = calls[2]!.result as { truncated: boolean; ref: { hash: string; size: number }; preview: string };
    assert.equal(ref.truncated, true);
    assert.ok(ref.preview.length <= 2000);
    const stored = await t.app.deps.prisma.eventPayload.findUniqueOrThrow({ where: { hash: ref.ref.hash } });
    assert.equal((stored.body as { text: string }).text.length, MAX_TOOL_OUTPUT_CHARS * 2);
    assert.match(calls[3]!.error!, /Unknown tool/);
  });
});
