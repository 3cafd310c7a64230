// Generation inside a task: the turn submits and suspends (no model call, no worker held); progress
// reaches the task as events; on completion the runtime decides: a lone result completes the task
// with no further inference, otherwise the task wakes; a cancel stops the job upstream and revives nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ToolMessage } from '@langchain/core/messages';
import type { Viewer } from '../server/auth/viewer.ts';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { runTurn } from '../server/runtime/engine.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { signalTask } from '../server/services/tasks/signal-task.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gqlOk, toGlobalId } from './helpers/clients.ts';
import { TaskJobs } from './helpers/documents.ts';
import { eventually } from './helpers/produce.ts';

let finishWhenDone = true;
const model = new ScriptedChatModel(({ messages }) => {
  const result = messages.find((m) => String(m.content).includes('[generation result]'));
  if (result) return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: 'series image 1 delivered' } }] };
  if (messages.some((m) => m instanceof ToolMessage)) return { content: 'waiting' };
  return { content: 'generating', toolCalls: [{ name: 'generate_image', args: { prompt: 'a lighthouse at dusk, warm light', finishWhenDone } }] };
});

let t: TestApp;
let dir: string;
let viewer: Viewer;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-genrt-'));
  t = await startTestApp('genruntime', {}, { models: scriptedProvider(model), provider: new SimulatedProvider({ filesDir: dir, latencyMs: { IMAGE: 400 } }) });
  viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
});
after(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(title: string) {
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title });
  const turn = await t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id } });
  return { task, turn };
}
const statusOf = async (id: string) => (await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id } })).status;

test('a lone image: the turn suspends, progress arrives as events, the result completes the task without another model call', async () => {
  finishWhenDone = true;
  const calls = model.calls;
  const { task, turn } = await start('lighthouse image');
  assert.equal((await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' })).outcome, 'suspended');
  assert.equal(await statusOf(task.id), 'WAITING');
  assert.equal(await t.app.deps.prisma.turn.count({ where: { taskId: task.id, status: { in: ['QUEUED', 'RUNNING'] } } }), 0, 'no worker held');
  await eventually(async () => (await statusOf(task.id)) === 'COMPLETED', 'completed by the job', 15_000);
  assert.equal(model.calls - calls, 1, 'no inference after the generation');
  const types = (await t.app.deps.prisma.taskEvent.findMany({ where: { taskId: task.id }, orderBy: { seq: 'asc' } })).map((e) => e.type);
  assert.ok(types.includes('JOB_PROGRESS') && types.includes('JOB_SUCCEEDED') && types.includes('TASK_DELIVERED'), types.join(','));
  const row = await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } });
  assert.match(row.summary, /image\/png/);
  // Through the API: the job with its files, and the money (held, then charged on delivery).
  const q = await gqlOk(t.url, t.a.readToken, TaskJobs, { id: toGlobalId('Task', task.id) });
  assert.equal(q.task.jobs.length, 1);
  assert.deepEqual([q.task.jobs[0]!.status, q.task.jobs[0]!.progress, q.task.jobs[0]!.files[0]!.mime, q.task.jobs[0]!.files[0]!.width], ['SUCCEEDED', 1, 'image/png', 256]);
  assert.deepEqual(q.task.ledger, { heldCents: 4, chargedCents: 4, releasedCents: 0, outstandingCents: 0 });
});

test('part of a series: the completion wakes the task and the next step reads the result', async () => {
  finishWhenDone = false;
  const calls = model.calls;
  const { task, turn } = await start('lighthouse series');
  assert.equal((await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' })).outcome, 'suspended');
  const next = await (async () => {
    await eventually(async () => (await t.app.deps.prisma.turn.count({ where: { taskId: task.id, status: 'QUEUED' } })) === 1, 'woken', 15_000);
    return t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id, status: 'QUEUED' } });
  })();
  assert.equal(await statusOf(task.id), 'QUEUED');
  assert.equal((await runTurn(t.app.deps.runtime, next.id, { workerId: 'w' })).outcome, 'completed');
  assert.equal(model.calls - calls, 2);
  const item = await t.app.deps.prisma.inboxItem.findFirstOrThrow({ where: { taskId: task.id, signal: 'JOB_RESULT' } });
  assert.equal(item.consumedTurnId, next.id, 'the result was read by the woken turn');
});

test('cancel during a generation: the job is cancelled at the provider and recorded, the task is not revived', async () => {
  finishWhenDone = false;
  const { task, turn } = await start('cancelled render');
  assert.equal((await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' })).outcome, 'suspended');
  await signalTask(t.app.deps, viewer, { taskId: task.id, signal: 'CANCEL' });
  const job = await t.app.deps.prisma.generationJob.findFirstOrThrow({ where: { taskId: task.id } });
  // The cancel reaches the provider before the 400 ms render ends (a result that still arrives is
  // recorded and charged: see job-recovery.test.ts); either way the job ends final.
  await eventually(async () => ['CANCELLED', 'SUCCEEDED'].includes((await t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id: job.id } })).status), 'job final', 15_000);
  const final = await t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id: job.id } });
  const ledger = await t.app.deps.prisma.ledgerEntry.findMany({ where: { jobId: job.id } });
  assert.deepEqual(ledger.map((l) => l.kind).sort(), ['HOLD', final.status === 'CANCELLED' ? 'RELEASE' : 'CHARGE'].sort(), 'settled by what the provider made');
  assert.equal(await statusOf(task.id), 'CANCELLED');
  assert.equal(await t.app.deps.prisma.turn.count({ where: { taskId: task.id, status: { in: ['QUEUED', 'RUNNING'] } } }), 0);
  assert.equal(await t.app.deps.prisma.inboxItem.count({ where: { taskId: task.id, signal: 'JOB_RESULT' } }), 0);
});
