// A database hiccup inside a turn is not the task's failure: the turn is handed over (its lease
// released) and the takeover finishes the task from its journal. A real error still fails it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ToolMessage } from '@langchain/core/messages';
import { z } from 'zod';
import type { Viewer } from '../server/auth/viewer.ts';
import { isTransient, runTurn } from '../server/runtime/engine.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { defineTool } from '../server/runtime/tools/types.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

let failures: Error[] = [];
const flaky = defineTool({
  name: 'flaky_step',
  domain: 'core',
  description: 'A step whose database sometimes hiccups.',
  // The right the agent policy requires for it (a tool that is not built in declares its own).
  scope: 'tasks:write',
  input: z.object({}),
  output: z.object({ ok: z.boolean() }),
  safety: 'IDEMPOTENT',
  async run() {
    const e = failures.shift();
    if (e) throw e;
    return { ok: true };
  },
});
// The tool's error escapes as an infrastructure error only when the runtime itself hits it, so the
// hiccup is planted in the model call (the runtime's own database work sits around it).
const model = new ScriptedChatModel(({ messages }) => {
  const e = failures.shift();
  if (e) throw e;
  if (messages.some((m) => m instanceof ToolMessage)) return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: 'ok' } }] };
  return { content: 'working', toolCalls: [{ name: 'flaky_step', args: {} }] };
});

let t: TestApp;
let viewer: Viewer;
before(async () => {
  t = await startTestApp('transient', {}, { models: scriptedProvider(model), tools: [flaky] });
  viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
});
after(async () => {
  await t.close();
});

test('what counts as transient', () => {
  const pool = Object.assign(new Error('Invalid `prisma.step.findMany()` invocation: Timed out fetching a new connection from the connection pool.'), { code: 'P2024' });
  assert.ok(isTransient(pool));
  assert.ok(isTransient(new Error('Connection terminated unexpectedly')));
  assert.ok(isTransient(Object.assign(new Error('could not serialize access'), { code: '40001' })));
  assert.ok(!isTransient(new Error('No checklist step "x"')));
  assert.ok(!isTransient(new TypeError('cannot read properties of undefined')));
});

test('a pool timeout hands the turn over; the takeover completes the task', async () => {
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: 'hiccup' });
  const turn = await t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id } });
  failures = [Object.assign(new Error('Timed out fetching a new connection from the connection pool'), { code: 'P2024' })];
  const first = await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w1' });
  assert.equal(first.outcome, 'lease-lost');
  assert.notEqual((await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status, 'FAILED');
  const second = await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w2' });
  assert.equal(second.outcome, 'completed');
  assert.equal(second.generation, 2);
  assert.equal((await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status, 'COMPLETED');
});

test('a real error still fails the task', async () => {
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: 'bug' });
  const turn = await t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id } });
  failures = [new TypeError('cannot read properties of undefined')];
  assert.equal((await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w1' })).outcome, 'failed');
  assert.equal((await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status, 'FAILED');
});
