// The router model: every outcome through a scripted model (LangChain interface), its answers are
// checked (never a task outside the index), failures fall back to the offline router, a likely
// duplicate goes back to the model as "continue or create", and the real ChatOpenAI client routes
// once against a local OpenAI-compatible stub.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HumanMessage } from '@langchain/core/messages';
import { loadConfig } from '../server/config.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel, type ScriptStep } from '../server/runtime/models/scripted-model.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gqlOk, toGlobalId } from './helpers/clients.ts';
import { SendMessage } from './helpers/documents.ts';
import { startOpenAIStub, toolCall } from './helpers/openai-stub.ts';

let routerAnswer: (prompt: string) => ScriptStep = () => ({ content: '' });
const model = new ScriptedChatModel(({ messages, tools }) => {
  if (!tools.includes('route')) return { content: 'worker: nothing to do' };
  const prompt = String(messages.filter((m) => m instanceof HumanMessage).at(-1)?.content ?? '');
  return routerAnswer(prompt);
});
const route = (args: Record<string, unknown>): ScriptStep => ({ content: '', toolCalls: [{ name: 'route', args: { reason: 'scripted', ...args } }] });

describe('router model (scripted)', () => {
  let t: TestApp;
  let ws: string;
  let k = 0;
  const send = async (text: string) =>
    (await gqlOk(t.url, t.a.ownerToken, SendMessage, { input: { workspaceId: ws, text, idempotencyKey: `m${++k}` } })).sendMessage;
  before(async () => {
    t = await startTestApp('modelrouter', {}, { models: { ...scriptedProvider(model), info: { ...scriptedProvider(model).info, offline: false } } });
    ws = toGlobalId('Workspace', t.a.workspaceId);
  });
  after(async () => {
    await t.close();
  });

  test('ANSWER, LIGHTWEIGHT_TASK and NEW_TASK come from the model (method MODEL)', async () => {
    routerAnswer = () => route({ outcome: 'ANSWER', reply: 'I can make posters, videos and 3D scenes.' });
    const a = await send('what can you do');
    assert.deepEqual([a.route.outcome, a.route.method, a.reply?.text], ['ANSWER', 'MODEL', 'I can make posters, videos and 3D scenes.']);
    routerAnswer = () => route({ outcome: 'LIGHTWEIGHT_TASK', title: 'Cat icon' });
    const l = await send('a cat icon');
    assert.deepEqual([l.route.outcome, l.task?.title], ['LIGHTWEIGHT_TASK', 'Cat icon']);
    routerAnswer = () => route({ outcome: 'NEW_TASK', title: 'Lighthouse film' });
    const n = await send('a short film about the lighthouse');
    assert.deepEqual([n.route.outcome, n.task?.title], ['NEW_TASK', 'Lighthouse film']);
  });

  test('EXISTING_TASK and CLARIFY refer to numbered index entries; the router sees no histories', async () => {
    const target = await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'Harbour poster', goal: 'poster for the harbour day', status: 'RUNNING' } });
    const other = await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'Harbour flyer', goal: 'flyer for the harbour day', status: 'RUNNING' } });
    const numberOf = (prompt: string, title: string) => Number(new RegExp(`(\\d+)\\. ${title} \\[`).exec(prompt)?.[1]);
    let seen = '';
    routerAnswer = (p) => {
      seen = p;
      return route({ outcome: 'EXISTING_TASK', task: numberOf(p, 'Harbour poster') });
    };
    const e = await send('make the harbour poster brighter');
    assert.deepEqual([e.route.outcome, e.route.method, e.task?.id], ['EXISTING_TASK', 'MODEL', toGlobalId('Task', target.id)]);
    assert.ok(seen.split('\n').filter((l) => /^\d+\. /.test(l)).length <= 30, 'bounded index');
    routerAnswer = (p) => route({ outcome: 'CLARIFY', candidates: [numberOf(p, 'Harbour poster'), numberOf(p, 'Harbour flyer')] });
    const c = await send('change the harbour one');
    assert.equal(c.route.outcome, 'CLARIFY');
    assert.deepEqual(
      c.card!.options.filter((o) => o.action === 'continue').map((o) => o.task?.id).sort(),
      [toGlobalId('Task', target.id), toGlobalId('Task', other.id)].sort(),
    );
  });

  test('an answer outside the index, a malformed answer or a failing model fall back to the offline router', async () => {
    routerAnswer = () => route({ outcome: 'EXISTING_TASK', task: 999 });
    assert.equal((await send('please continue the work')).route.method, 'RETRIEVAL');
    routerAnswer = () => ({ content: 'I think task 2', toolCalls: [] });
    assert.equal((await send('please continue the other work')).route.method, 'RETRIEVAL');
    routerAnswer = () => {
      throw new Error('model unavailable');
    };
    const r = await send('thanks!');
    assert.deepEqual([r.route.method, r.route.outcome], ['RETRIEVAL', 'ANSWER']);
  });

  test('a likely duplicate goes back to the model with the candidate: it chooses to continue', async () => {
    const running = await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'Marathon medal design', goal: 'medal for the city marathon', status: 'RUNNING' } });
    const prompts: string[] = [];
    routerAnswer = (p) => {
      prompts.push(p);
      return p.includes('looks like the running task') ? route({ outcome: 'EXISTING_TASK', task: 1 }) : route({ outcome: 'NEW_TASK', title: 'Medal' });
    };
    const r = await send('design a medal for the city marathon');
    assert.equal(prompts.length, 2, 'asked twice: route, then continue-or-create');
    assert.deepEqual([r.route.outcome, r.task?.id], ['EXISTING_TASK', toGlobalId('Task', running.id)]);
  });
});

describe('router on the real ChatOpenAI client', () => {
  let stub: Awaited<ReturnType<typeof startOpenAIStub>>;
  let t: TestApp;
  before(async () => {
    stub = await startOpenAIStub(() => ({
      role: 'assistant',
      content: null,
      tool_calls: [toolCall('c1', 'route', { outcome: 'EXISTING_TASK', task: 1, reason: 'names the regatta poster' })],
    }));
    t = await startTestApp('routeropenai', {
      openai: { apiKey: 'sk-test', baseUrl: stub.baseUrl, routerModel: 'stub-router', workerModel: 'stub-worker' },
      runtime: loadConfig({}).runtime,
    });
  });
  after(async () => {
    await t?.close();
    await stub?.close();
  });

  test('the router model is called with the route tool and its answer routes the message', async () => {
    const task = await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'Regatta poster', status: 'RUNNING' } });
    const r = (await gqlOk(t.url, t.a.ownerToken, SendMessage, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), text: 'bigger sails on it', idempotencyKey: 'r1' } })).sendMessage;
    assert.deepEqual([r.route.outcome, r.route.method, r.task?.id], ['EXISTING_TASK', 'MODEL', toGlobalId('Task', task.id)]);
    const req = stub.requests.find((b) => b.model === 'stub-router')!;
    assert.ok(req, 'the router role used its own model name');
    assert.deepEqual(req.tools?.map((x) => x.function.name), ['route']);
    assert.match(JSON.stringify(req.tool_choice), /route/);
    assert.match(String(req.messages.at(-1)!.content), /1\. Regatta poster/);
  });
});
