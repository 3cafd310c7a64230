// The worker driving the real ChatOpenAI client over HTTP against a local OpenAI-compatible stub:
// tool definitions go out as JSON schema, tool calls come back, results are answered with tool
// messages carrying the model's call ids, and the task completes.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Viewer } from '../server/auth/viewer.ts';
import { runTurn } from '../server/runtime/engine.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { loadConfig } from '../server/config.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

type Msg = { role: string; content: string | null; tool_call_id?: string; tool_calls?: { id: string }[] };
const requests: { model: string; messages: Msg[]; tools?: { function: { name: string; parameters: unknown } }[] }[] = [];
let stub: Server;
let t: TestApp;

before(async () => {
  stub = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      requests.push(body);
      const toolResults = (body.messages as Msg[]).filter((m) => m.role === 'tool').length;
      const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
      const message =
        toolResults === 0
          ? { role: 'assistant', content: 'Planning.', tool_calls: [call('call_a', 'add_note', { text: 'plan: warm colours' })] }
          : { role: 'assistant', content: null, tool_calls: [call('call_b', 'complete_task', { summary: 'poster planned' })] };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: 1_700_000_000,
          model: body.model,
          choices: [{ index: 0, message, finish_reason: 'tool_calls' }],
          usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        }),
      );
    });
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', () => r()));
  const port = (stub.address() as AddressInfo).port;
  const base = loadConfig({ ATELIER_LOG_LEVEL: 'silent' });
  t = await startTestApp('openai', {
    openai: { apiKey: 'sk-test', baseUrl: `http://127.0.0.1:${port}/v1`, workerModel: 'stub-worker', routerModel: 'stub-router' },
    runtime: base.runtime,
  });
});
after(async () => {
  await t?.close();
  stub?.closeAllConnections();
  await new Promise<void>((r) => stub.close(() => r()));
});

test('a task runs on ChatOpenAI over HTTP: tools out as JSON schema, tool messages back with the call ids', async () => {
  assert.equal(t.app.deps.runtime.models.info.offline, false);
  const viewer: Viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: 'Autumn poster' });
  const turn = await t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id } });
  assert.equal((await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' })).outcome, 'completed');

  assert.equal(requests.length, 2);
  assert.equal(requests[0]!.model, 'stub-worker');
  const names = requests[0]!.tools!.map((x) => x.function.name).sort();
  assert.deepEqual(names, ['add_note', 'complete_task']);
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
