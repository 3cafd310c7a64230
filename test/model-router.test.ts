// The router model: every outcome through a scripted model (LangChain interface), its answers are
// checked (never a task outside the index), failures fall back to the offline router, a likely
// duplicate goes back to the model as "continue or create", and the real ChatOpenAI client routes
// against a local OpenAI-compatible stub. The model's index and prompt carry what the offline router
// reads (title, brief, summary, results, object names, dates, finished or archived state), and its
// intents (stop, pause, resume, status, remember) and seeds (next year's edition) come back checked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HumanMessage } from '@langchain/core/messages';
import { loadConfig } from '../server/config.ts';
import { day, routeWithModel } from '../server/routing/model-router.ts';
import { loadTaskIndex } from '../server/routing/task-index.ts';
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

  test('the prompt carries brief, summary, results, object names, dates and finished or archived state; intents and seeds come back checked', async () => {
    const { prisma } = t.app.deps;
    const ws2 = await prisma.workspace.create({ data: { name: 'Model reads', slug: 'model-reads' } });
    const now = new Date();
    const ago = (days: number) => new Date(now.getTime() - days * 86_400_000);
    const delivered = await prisma.task.create({
      data: {
        workspaceId: ws2.id, title: 'Lantern Café winter posters', goal: 'three A2 posters for the winter menu', summary: 'all three delivered',
        status: 'COMPLETED', createdAt: ago(9), lastActivityAt: ago(2), endedAt: ago(2), checklistVersion: 1,
      },
    });
    await prisma.taskChecklist.create({
      data: { taskId: delivered.id, version: 1, reason: 'test', authorKind: 'SYSTEM', items: [{ id: 's1', title: 'poster 2 — gingerbread', kind: 'IMAGE', status: 'DONE', artifacts: ['job:x'] }] },
    });
    const obj = await prisma.workspaceObject.create({ data: { workspaceId: ws2.id, kind: 'IMAGE', name: 'Gingerbread poster v2', currentVersion: 1, createdByKind: 'AGENT' } });
    await prisma.taskObjectRef.create({ data: { taskId: delivered.id, objectId: obj.id } });
    const archived = await prisma.task.create({
      data: { workspaceId: ws2.id, title: 'Village fair flyer', goal: 'A5 flyer', status: 'COMPLETED', createdAt: ago(90), lastActivityAt: ago(80), endedAt: ago(80), archivedAt: ago(4) },
    });
    const running = await prisma.task.create({ data: { workspaceId: ws2.id, title: 'Lighthouse tour video', goal: 'a one-minute tour video', status: 'RUNNING', createdAt: ago(3), lastActivityAt: ago(1) } });

    const index = await loadTaskIndex(prisma, ws2.id, 'the gingerbread poster');
    const number = (id: string) => index.findIndex((e) => e.taskId === id) + 1;
    let seen = '';
    const ask = async (args: Record<string, unknown>, text = 'the gingerbread poster, softer red') => {
      routerAnswer = (p) => {
        seen = p;
        return route(args);
      };
      return (await routeWithModel(model, text, index, now))!;
    };
    const d = await ask({ outcome: 'EXISTING_TASK', task: number(delivered.id), intent: 'STATUS' });
    assert.deepEqual([d.outcome, d.taskId, d.intent], ['EXISTING_TASK', delivered.id, 'STATUS']);
    const line = seen.split('\n').find((l) => l.includes('Lantern Café winter posters'))!;
    for (const part of ['brief: three A2 posters for the winter menu', 'so far: all three delivered', 'results: poster 2 — gingerbread', 'objects: Gingerbread poster v2', `created ${day(ago(9))}`, `finished ${day(ago(2))}`, 'completed']) {
      assert.ok(line.includes(part), `${part} in: ${line}`);
    }
    assert.match(seen, new RegExp(`Today is ${day(now)}`));
    assert.match(seen.split('\n').find((l) => l.includes('Village fair flyer'))!, /\[archived, completed/);
    assert.match(seen.split('\n').find((l) => l.includes('Lighthouse tour video'))!, /\[running, created/);

    const stop = await ask({ outcome: 'EXISTING_TASK', task: number(running.id), intent: 'CANCEL' }, 'stop the lighthouse video');
    assert.deepEqual([stop.taskId, stop.intent], [running.id, 'CANCEL']);
    const seeded = await ask({ outcome: 'NEW_TASK', title: 'Village fair flyer 2027', seed: number(archived.id) }, 'the village fair flyer for next year');
    assert.deepEqual([seeded.outcome, seeded.seedTaskId], ['NEW_TASK', archived.id]);
    // An archived task is never written to: a pick of one becomes new work seeded from it.
    const fromArchive = await ask({ outcome: 'EXISTING_TASK', task: number(archived.id) }, 'the village fair flyer, but in green');
    assert.deepEqual([fromArchive.outcome, fromArchive.taskId, fromArchive.seedTaskId], ['NEW_TASK', null, archived.id]);
    const remember = await ask({ outcome: 'ANSWER', intent: 'REMEMBER', reply: 'Noted.' }, 'our brand colour is teal');
    assert.deepEqual([remember.outcome, remember.intent], ['ANSWER', 'REMEMBER']);
    // An intent that does not belong to the outcome is dropped, never acted on.
    const odd = await ask({ outcome: 'ANSWER', intent: 'CANCEL', reply: 'ok' }, 'hello');
    assert.equal(odd.intent, undefined);
    const clarify = await ask({ outcome: 'CLARIFY', candidates: [number(running.id), number(archived.id)], intent: 'PAUSE' }, 'pause it');
    assert.deepEqual([clarify.candidates.map((c) => c.taskId), clarify.intent], [[running.id], 'PAUSE'], 'archived tasks are never offered');
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
  const defaultAnswer = toolCall('c1', 'route', { outcome: 'EXISTING_TASK', task: 1, reason: 'names the regatta poster' });
  let answer = defaultAnswer;
  let stub: Awaited<ReturnType<typeof startOpenAIStub>>;
  let t: TestApp;
  before(async () => {
    stub = await startOpenAIStub(() => ({ role: 'assistant', content: null, tool_calls: [answer] }));
    t = await startTestApp('routeropenai', {
      openai: { apiKey: 'sk-test', baseUrl: stub.baseUrl, routerModel: 'stub-router', workerModel: 'stub-worker' },
      runtime: loadConfig({}).runtime,
    });
  });
  after(async () => {
    await t?.close();
    await stub?.close();
  });

  test('the real client carries the facts of the index and brings back an intent', async () => {
    const { prisma } = t.app.deps;
    const ws2 = await prisma.workspace.create({ data: { name: 'Stub reads', slug: 'stub-reads' } });
    const task = await prisma.task.create({
      data: { workspaceId: ws2.id, title: 'Regatta programme', goal: 'eight-page regatta programme', summary: 'delivered', status: 'COMPLETED', endedAt: new Date(), checklistVersion: 1 },
    });
    await prisma.taskChecklist.create({
      data: { taskId: task.id, version: 1, reason: 'test', authorKind: 'SYSTEM', items: [{ id: 's1', title: 'page 3 — race map', kind: 'IMAGE', status: 'DONE', artifacts: ['job:y'] }] },
    });
    answer = toolCall('c2', 'route', { outcome: 'EXISTING_TASK', task: 1, intent: 'STATUS', reason: 'asks where the programme stands' });
    const before = stub.requests.length;
    const index = await loadTaskIndex(prisma, ws2.id, 'is the regatta programme done');
    const d = (await routeWithModel(t.app.deps.runtime.models.chat('router'), 'is the regatta programme done', index, new Date()))!;
    assert.deepEqual([d.outcome, d.method, d.taskId, d.intent], ['EXISTING_TASK', 'MODEL', task.id, 'STATUS']);
    const req = stub.requests.slice(before).find((b) => b.model === 'stub-router')!;
    const prompt = String(req.messages.at(-1)!.content);
    assert.match(prompt, /1\. Regatta programme \[completed, created .*finished .*\] — brief: eight-page regatta programme — so far: delivered — results: page 3 — race map/);
    assert.ok((req.tools?.[0]?.function.parameters as { properties: Record<string, unknown> }).properties.intent, 'the route tool offers intents');
    answer = defaultAnswer;
  });

  test('the router model is called with the route tool and its answer routes the message', async () => {
    const task = await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'Regatta poster', status: 'RUNNING' } });
    const sent = stub.requests.length;
    const r = (await gqlOk(t.url, t.a.ownerToken, SendMessage, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), text: 'bigger sails on it', idempotencyKey: 'r1' } })).sendMessage;
    assert.deepEqual([r.route.outcome, r.route.method, r.task?.id], ['EXISTING_TASK', 'MODEL', toGlobalId('Task', task.id)]);
    const req = stub.requests.slice(sent).find((b) => b.model === 'stub-router')!;
    assert.ok(req, 'the router role used its own model name');
    assert.deepEqual(req.tools?.map((x) => x.function.name), ['route']);
    assert.match(JSON.stringify(req.tool_choice), /route/);
    assert.match(String(req.messages.at(-1)!.content), /1\. Regatta poster/);
  });
});
