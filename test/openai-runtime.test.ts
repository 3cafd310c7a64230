// The worker driving the real ChatOpenAI client over HTTP against a local OpenAI-compatible stub:
// tool definitions go out as JSON schema, tool calls come back, results are answered with tool
// messages carrying the model's call ids, and the task completes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Viewer } from '../server/auth/viewer.ts';
import { runTurn } from '../server/runtime/engine.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { loadConfig } from '../server/config.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { startOpenAIStub, toolCall, type StubBody } from './helpers/openai-stub.ts';

let stub: Awaited<ReturnType<typeof startOpenAIStub>>;
let t: TestApp;
const requests: StubBody[] = [];

before(async () => {
  stub = await startOpenAIStub((body) => {
    const toolResults = body.messages.filter((m) => m.role === 'tool').length;
    return toolResults === 0
      ? { role: 'assistant', content: 'Planning.', tool_calls: [toolCall('call_a', 'add_note', { text: 'plan: warm colours' })] }
      : { role: 'assistant', content: null, tool_calls: [toolCall('call_b', 'complete_task', { summary: 'poster planned' })] };
  });
  const base = loadConfig({ ATELIER_LOG_LEVEL: 'silent' });
  t = await startTestApp('openai', {
    openai: { apiKey: 'sk-test', baseUrl: stub.baseUrl, workerModel: 'stub-worker', routerModel: 'stub-router' },
    runtime: base.runtime,
  });
});
after(async () => {
  await t?.close();
  await stub?.close();
});

test('a task runs on ChatOpenAI over HTTP: tools out as JSON schema, tool messages back with the call ids', async () => {
  assert.equal(t.app.deps.runtime.models.info.offline, false);
  const viewer: Viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: 'Autumn poster' });
  const turn = await t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id } });
  assert.equal((await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' })).outcome, 'completed');

  requests.push(...stub.requests);
  assert.equal(requests.length, 2);
  assert.equal(requests[0]!.model, 'stub-worker');
  const names = requests[0]!.tools!.map((x) => x.function.name).sort();
  // Core tools plus the domain the task's words name ("poster" → image); the other domains are
  // hidden until the plan needs them (tools/tool-phase.ts).
  assert.deepEqual(names, [
    'add_note',
    'ask_user',
    'complete_task',
    'create_collection',
    'generate_image',
    'plan_checklist',
    'read_object',
    'read_result',
    'update_checklist',
    'write_object',
  ]);
  assert.match(JSON.stringify(requests[0]!.tools![0]!.function.parameters), /"type":"object"/);
  const second = requests[1]!.messages;
  const assistant = second.find((m) => m.role === 'assistant');
  const toolMsg = second.find((m) => m.role === 'tool');
  assert.equal(assistant?.tool_calls?.[0]?.id, 'call_a');
  assert.equal(toolMsg?.tool_call_id, 'call_a');
  assert.match(String(toolMsg?.content), /"status":"DONE"/);

  const row = await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } });
  assert.equal(row.status, 'COMPLETED');
  assert.equal(row.summary, 'poster planned');
  const step = await t.app.deps.prisma.step.findFirstOrThrow({ where: { taskId: task.id, index: 0 } });
  assert.equal(step.model, 'stub-worker');
  assert.deepEqual((step.usage as { input_tokens: number }).input_tokens, 100, 'usage journaled');
  assert.match(step.requestDigest, /^[0-9a-f]{64}$/);
});
