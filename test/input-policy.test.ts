// Input policies: what a person's message does when it arrives while its task runs. A step of two
// calls (gate 1, gate 2) runs; the message arrives while gate 1 is in the middle of its work.
//   QUEUE      gate 2 still runs, then the model reads the message (today's behaviour);
//   INTERRUPT  gate 2 is SKIPPED (never runs), the model decides again in the same turn, reading
//              the message and that gate 2 was skipped;
//   ROLLBACK   gate 2 is SKIPPED and dropped from what the model reads; the turn ends and a new
//              one reads the message;
//   REJECT     the message is refused (CONFLICT, TASK_BUSY) and nothing is stored.
// The same for a message arriving while a job is being made (no step runs then), and for a task's
// own policy. Each application is journaled (TURN_INTERRUPTED, MESSAGE_RECEIVED's policy).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { Viewer } from '../server/auth/viewer.ts';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { runTurn } from '../server/runtime/engine.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { createGate } from './fixtures/gate-tool.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, toGlobalId } from './helpers/clients.ts';
import { waitFor } from './helpers/wait.ts';

const NEW = 'NEW DIRECTION: make it blue';

const gates = createGate();
const hold = gates.hold;

/** What each model call was shown, per task title. */
const seen = new Map<string, BaseMessage[][]>();
const model = new ScriptedChatModel(({ messages }) => {
  const title = /Task: (.*)/.exec(messages.map((m) => String(m.content)).join('\n'))?.[1] ?? '?';
  seen.set(title, [...(seen.get(title) ?? []), messages]);
  const human = messages.filter((m) => m instanceof HumanMessage).map((m) => String(m.content));
  if (human.some((h) => h.includes(NEW))) return { content: 'changing direction', toolCalls: [{ name: 'complete_task', args: { summary: 'read the new direction' } }] };
  if (title.startsWith('job ')) {
    if (messages.some((m) => m instanceof ToolMessage)) return { content: 'waiting for the image' };
    return { content: 'making it', toolCalls: [{ name: 'generate_image', args: { prompt: 'a quiet harbour at dawn' } }] };
  }
  if (messages.some((m) => m instanceof ToolMessage)) return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: 'both gates' } }] };
  return { content: 'two gates', toolCalls: [{ name: 'gate', args: { k: 1 } }, { name: 'gate', args: { k: 2 } }] };
});

const Send = graphql(`
  mutation PolicySend($i: SendMessageInput!) { sendMessage(input: $i) { message { id } } }
`);
const Update = graphql(`
  mutation PolicyUpdateTask($i: UpdateTaskInput!) { updateTask(input: $i) { task { id inputPolicy } } }
`);
const Signal = graphql(`
  mutation PolicySignal($i: SignalTaskInput!) { signalTask(input: $i) { task { id } } }
`);

let t: TestApp;
let dir: string;
let viewer: Viewer;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-input-policy-'));
  t = await startTestApp('inputpolicy', {}, { models: scriptedProvider(model), tools: [gates.tool], provider: new SimulatedProvider({ filesDir: dir, latencyMs: { IMAGE: 60_000 } }) });
  viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]), principal: 'HUMAN' };
  // Paid images need no card here: the job case is about the message, not the price.
  await t.app.deps.prisma.workspaceSettings.upsert({ where: { workspaceId: t.a.workspaceId }, create: { workspaceId: t.a.workspaceId, perActionFreeCents: 10_000 }, update: { perActionFreeCents: 10_000 } });
});
after(async () => {
  gates.openAll();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const prisma = () => t.app.deps.prisma;
const send = (taskId: string, text: string, inputPolicy?: 'QUEUE' | 'INTERRUPT' | 'REJECT' | 'ROLLBACK', key = `k-${Math.random()}`) =>
  gql(t.url, t.a.ownerToken, Send, { i: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), taskId: toGlobalId('Task', taskId), text, idempotencyKey: key, ...(inputPolicy ? { inputPolicy } : {}) } });
const queued = (taskId: string) => prisma().turn.findFirst({ where: { taskId, status: 'QUEUED' } });
const callsOf = (taskId: string) => prisma().toolCall.findMany({ where: { taskId, name: 'gate' }, orderBy: { id: 'asc' } });
const interruptions = (taskId: string) => prisma().taskEvent.findMany({ where: { taskId, type: 'TURN_INTERRUPTED' } });

/** Starts a two-gate task and runs its turn until gate 1 is in the middle of its work. */
async function midCall(title: string) {
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title });
  const h = hold(task.id);
  const turn = (await queued(task.id))!;
  const running = runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' });
  await waitFor(() => h.isStarted, 'gate 1 running');
  return { task, h, running, turn };
}

describe('a message arriving during a tool call', () => {
  test('QUEUE (the default): the step finishes its calls, then the model reads the message', async () => {
    const { task, h, running } = await midCall('queue gates');
    const r = await send(task.id, NEW);
    assert.equal(r.errors, undefined);
    h.open();
    await running;
    assert.deepEqual(gates.ran(task.id), [1, 2], 'gate 2 ran');
    assert.deepEqual((await callsOf(task.id)).map((c) => c.status), ['DONE', 'DONE']);
    assert.equal((await interruptions(task.id)).length, 0);
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: task.id } })).status, 'COMPLETED');
    assert.ok(seen.get('queue gates')!.at(-1)!.some((m) => String(m.content).includes(NEW)), 'the model read it');
  });

  test('INTERRUPT: the calls not started are skipped; the model decides again in the same turn with the message', async () => {
    const { task, h, running, turn } = await midCall('interrupt gates');
    const r = await send(task.id, NEW, 'INTERRUPT');
    assert.equal(r.errors, undefined);
    h.open();
    await running;
    assert.deepEqual(gates.ran(task.id), [1], 'gate 2 never ran; gate 1, already running, finished');
    const calls = await callsOf(task.id);
    assert.deepEqual(calls.map((c) => c.status), ['DONE', 'SKIPPED']);
    const [ev] = await interruptions(task.id);
    assert.ok(ev, 'journaled');
    assert.deepEqual((ev.payload as { skipped: string[]; policy: string }).skipped, [calls[1]!.id]);
    assert.equal((ev.payload as { policy: string }).policy, 'INTERRUPT');
    const received = await prisma().taskEvent.findFirstOrThrow({ where: { taskId: task.id, type: 'MESSAGE_RECEIVED' } });
    assert.equal((received.payload as { inputPolicy?: string }).inputPolicy, 'INTERRUPT');
    // The model's last request: the plan it made, gate 2 marked SKIPPED, then the message.
    const last = seen.get('interrupt gates')!.at(-1)!;
    const skipped = last.find((m) => m instanceof ToolMessage && String(m.content).includes('SKIPPED'));
    assert.ok(skipped, 'the model reads that gate 2 was skipped');
    assert.ok(last.findIndex((m) => String(m.content).includes(NEW)) > last.indexOf(skipped!), 'and the message after it');
    assert.equal((await prisma().turn.count({ where: { taskId: task.id } })), 1, 'the same turn went on');
    assert.equal((await prisma().turn.findUniqueOrThrow({ where: { id: turn.id } })).status, 'COMPLETED');
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: task.id } })).status, 'COMPLETED');
  });

  test('ROLLBACK: the rest of the step is skipped and dropped from what the model reads; a new turn starts with the message', async () => {
    const { task, h, running, turn } = await midCall('rollback gates');
    const r = await send(task.id, NEW, 'ROLLBACK');
    assert.equal(r.errors, undefined);
    h.open();
    assert.equal((await running).outcome, 'requeued');
    assert.deepEqual(gates.ran(task.id), [1]);
    const calls = await callsOf(task.id);
    assert.deepEqual(calls.map((c) => c.status), ['DONE', 'SKIPPED']);
    assert.equal((await prisma().turn.findUniqueOrThrow({ where: { id: turn.id } })).status, 'COMPLETED', 'the rolled-back turn ended');
    const next = await queued(task.id);
    assert.ok(next, 'a new turn is queued in the same transaction');
    await runTurn(t.app.deps.runtime, next.id, { workerId: 'w' });
    const last = seen.get('rollback gates')!.at(-1)!;
    const asked = last.filter((m): m is AIMessage => m instanceof AIMessage).flatMap((m) => m.tool_calls ?? []);
    assert.deepEqual(asked.map((c) => c.args), [{ k: 1 }], 'the skipped gate 2 is not in what the model reads');
    assert.ok(!last.some((m) => m instanceof ToolMessage && String(m.content).includes('SKIPPED')));
    assert.ok(last.some((m) => String(m.content).includes(NEW)));
    assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: task.id } })).status, 'COMPLETED');
    assert.equal(((await interruptions(task.id))[0]!.payload as { policy: string }).policy, 'ROLLBACK');
  });

  test('REJECT: refused in words while busy, nothing stored; the run goes on untouched', async () => {
    const { task, h, running } = await midCall('reject gates');
    const messages = await prisma().message.count();
    const r = await send(task.id, NEW, 'REJECT');
    assert.equal(r.errors?.[0]?.extensions?.code, 'CONFLICT');
    assert.equal(r.errors?.[0]?.extensions?.reason, 'TASK_BUSY');
    assert.match(r.errors![0]!.message, /“reject gates” is busy/);
    assert.equal(await prisma().message.count(), messages, 'no message stored');
    assert.equal(await prisma().inboxItem.count({ where: { taskId: task.id, kind: 'MESSAGE', authorUserId: { not: null }, text: NEW } }), 0);
    // REVISE with REJECT is refused the same way.
    const s = await gql(t.url, t.a.ownerToken, Signal, { i: { taskId: toGlobalId('Task', task.id), signal: 'REVISE', text: NEW, inputPolicy: 'REJECT' } });
    assert.equal(s.errors?.[0]?.extensions?.reason, 'TASK_BUSY');
    h.open();
    await running;
    assert.deepEqual(gates.ran(task.id), [1, 2]);
    assert.ok(!seen.get('reject gates')!.some((req) => req.some((m) => String(m.content).includes(NEW))), 'the model never saw it');
    // Once the task is no longer busy, the same policy lets a message in.
    const done = await send(task.id, 'thanks', 'REJECT');
    assert.equal(done.errors, undefined);
  });

  test("the task's own policy applies to a message that names none; a message's own policy wins", async () => {
    const { task, h, running } = await midCall('own policy gates');
    const u = await gql(t.url, t.a.ownerToken, Update, { i: { taskId: toGlobalId('Task', task.id), inputPolicy: 'INTERRUPT' } });
    assert.equal(u.data?.updateTask.task.inputPolicy, 'INTERRUPT');
    await send(task.id, NEW);
    h.open();
    await running;
    assert.deepEqual(gates.ran(task.id), [1]);
    assert.equal((await interruptions(task.id)).length, 1);

    const second = await midCall('own policy, queued message');
    await gql(t.url, t.a.ownerToken, Update, { i: { taskId: toGlobalId('Task', second.task.id), inputPolicy: 'REJECT' } });
    const r = await send(second.task.id, NEW, 'QUEUE');
    assert.equal(r.errors, undefined, 'QUEUE on the message overrides the task’s REJECT');
    second.h.open();
    await second.running;
    assert.deepEqual(gates.ran(second.task.id), [1, 2]);
    const bad = await gql(t.url, t.a.ownerToken, Update, { i: { taskId: toGlobalId('Task', second.task.id), inputPolicy: 'SOMETIMES' as never } });
    assert.ok(bad.errors?.length, 'an unknown policy is refused by the schema');
  });
});

describe('a message arriving while a job is being made', () => {
  async function waitingOnJob(title: string) {
    const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title });
    await runTurn(t.app.deps.runtime, (await queued(task.id))!.id, { workerId: 'w' });
    const row = await prisma().task.findUniqueOrThrow({ where: { id: task.id } });
    assert.equal(row.status, 'WAITING');
    const job = await prisma().generationJob.findFirstOrThrow({ where: { taskId: task.id } });
    assert.ok(['QUEUED', 'RUNNING', 'SUBMITTING'].includes(job.status), job.status);
    return { task, job };
  }

  test('REJECT refuses while the job is owed; INTERRUPT wakes the task at once and the job keeps running', async () => {
    const { task, job } = await waitingOnJob('job harbour');
    const r = await send(task.id, NEW, 'REJECT');
    assert.equal(r.errors?.[0]?.extensions?.reason, 'TASK_BUSY');
    assert.equal(await queued(task.id), null, 'not woken');
    const i = await send(task.id, NEW, 'INTERRUPT');
    assert.equal(i.errors, undefined);
    const turn = await queued(task.id);
    assert.ok(turn, 'woken now, not when the image is done');
    await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' });
    assert.ok(seen.get('job harbour')!.at(-1)!.some((m) => String(m.content).includes(NEW)), 'the model read it');
    const still = await prisma().generationJob.findUniqueOrThrow({ where: { id: job.id } });
    assert.notEqual(still.status, 'CANCELLED', 'paid work in flight is not undone');
    assert.equal(await prisma().generationJob.count({ where: { taskId: task.id } }), 1, 'and not ordered again');
  });

  test('QUEUE and ROLLBACK deliver too (no step runs while the job is made); the message carries its policy', async () => {
    for (const policy of ['QUEUE', 'ROLLBACK'] as const) {
      const { task } = await waitingOnJob(`job ${policy.toLowerCase()}`);
      const r = await send(task.id, NEW, policy);
      assert.equal(r.errors, undefined);
      assert.ok(await queued(task.id), `${policy}: woken`);
      const item = await prisma().inboxItem.findFirstOrThrow({ where: { taskId: task.id, text: NEW } });
      assert.equal(item.inputPolicy, policy);
      assert.equal((await interruptions(task.id)).length, 0, 'nothing to interrupt');
    }
  });
});
