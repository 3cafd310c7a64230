// The worker id (host:pid:suffix) is on what a worker writes: the turn it claims (lease_owner,
// TURN_STARTED.payload.workerId) and every event written during the turn (task_events.worker_id),
// which owners read as `TaskEvent.actor.workerId`; the API's own writes carry none, and members who
// are not owners do not see it (like viewer.runtime.processes).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, testConfig, type TestApp } from './helpers/app.ts';
import { gqlOk, toGlobalId } from './helpers/clients.ts';
import { CreateTask } from './helpers/documents.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { waitFor } from './helpers/wait.ts';
import { EFFECTS_TABLE_SQL } from './fixtures/runtime-plugin.ts';
import { insertOrder } from '../server/store/generation-jobs.ts';
import { insertHold } from '../server/store/ledger-holds.ts';

let t: TestApp;
before(async () => {
  // The fixture's scripted model calls its tool twice, then completes the task.
  process.env.PLUGIN_STEPS = '2';
  process.env.PLUGIN_TOOL_MS = '10';
  t = await startTestApp('workerid', { runtime: { ...testConfig().runtime, plugin: 'test/fixtures/runtime-plugin.ts', watchdogMs: 200, leaseMs: 500, reconcileMs: 100 } }, {}, { worker: { concurrency: 1 } });
  await t.app.deps.prisma.$executeRawUnsafe(EFFECTS_TABLE_SQL);
});
after(async () => {
  await t.close();
});

type Actor = { kind: string; workerId: string | null };
async function eventActors(token: string, taskId: string): Promise<{ seq: number; type: string; actor: Actor }[]> {
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      query: 'query($id: ID!) { task(id: $id) { events(first: 200) { edges { node { seq type actor { kind workerId } } } } } }',
      variables: { id: toGlobalId('Task', taskId) },
    }),
  });
  const body = (await res.json()) as { data?: { task: { events: { edges: { node: { seq: number; type: string; actor: Actor } }[] } } }; errors?: unknown };
  assert.ok(body.data, JSON.stringify(body.errors));
  return body.data.task.events.edges.map((e) => e.node);
}

test('every event a worker writes during a turn records its worker id; owners see it, the API writes none', async () => {
  const { prisma } = t.app.deps;
  const workerId = t.worker!.workerId;
  const d = await gqlOk(t.url, t.a.ownerToken, CreateTask, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: 'who wrote this' } });
  const taskId = fromGlobalId(d.createTask.task.id).id;
  await waitFor(async () => (await prisma.task.findUniqueOrThrow({ where: { id: taskId } })).status === 'COMPLETED', 'task completed', { timeoutMs: 30_000 });

  const events = await prisma.taskEvent.findMany({ where: { taskId }, orderBy: { seq: 'asc' } });
  const started = events.find((e) => e.type === 'TURN_STARTED');
  assert.ok(started);
  assert.equal((started.payload as { workerId: string }).workerId, workerId, 'the claim names the worker');
  const turn = await prisma.turn.findFirstOrThrow({ where: { taskId } });
  assert.equal(turn.leaseOwner, workerId);

  // The API wrote the events createTask returned with; the worker everything after (claim onwards).
  const apiSeq = d.createTask.task.lastEventSeq;
  const beforeTurn = events.filter((e) => e.seq <= apiSeq);
  const inTurn = events.filter((e) => e.seq > apiSeq);
  assert.ok(inTurn[0]!.seq <= started.seq, 'the claim is the first write of the worker');
  assert.ok(beforeTurn.length > 0, 'the API wrote the task creation');
  assert.deepEqual(beforeTurn.map((e) => [e.type, e.workerId]), beforeTurn.map((e) => [e.type, null]), "the API's writes carry no worker id");
  assert.ok(inTurn.some((e) => e.actorKind === 'AGENT') && inTurn.some((e) => e.actorKind === 'SYSTEM'), JSON.stringify(inTurn.map((e) => [e.type, e.actorKind])));
  assert.deepEqual(inTurn.map((e) => [e.type, e.workerId]), inTurn.map((e) => [e.type, workerId]), 'every event of the turn, agent and system alike, records the worker');

  // Through the API: the owner sees the worker on each event of the turn; a viewer sees none.
  const asOwner = await eventActors(t.a.ownerToken, taskId);
  assert.deepEqual(asOwner.map((e) => e.actor.workerId), events.map((e) => e.workerId));
  const asViewer = await eventActors(t.a.viewerToken, taskId);
  assert.equal(asViewer.length, events.length);
  assert.ok(asViewer.every((e) => e.actor.workerId === null), 'only owners see which process acted');
});

test("events written by the worker's job reconciliation record its worker id", async () => {
  const { prisma } = t.app.deps;
  const workerId = t.worker!.workerId;
  const d = await gqlOk(t.url, t.a.ownerToken, CreateTask, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: 'a late order' } });
  const taskId = fromGlobalId(d.createTask.task.id).id;
  await waitFor(async () => (await prisma.task.findUniqueOrThrow({ where: { id: taskId } })).status === 'COMPLETED', 'task completed', { timeoutMs: 30_000 });
  const endSeq = (await prisma.task.findUniqueOrThrow({ where: { id: taskId } })).lastEventSeq;
  // An order whose placer died before submitting it: only the worker's reconciliation (every 100 ms
  // here) takes it further (submits it by its key, or cancels it).
  const jobId = await prisma.$transaction(async (tx) => {
    const id = await insertOrder(tx, {
      workspaceId: t.a.workspaceId, taskId, kind: 'IMAGE', provider: t.app.deps.jobs.provider.name, idempotencyKey: `orphan-${taskId}`,
      prompt: 'a kite', params: {}, quoteCents: 4, workerId: 'a-dead-worker', turnGeneration: 1,
    });
    await insertHold(tx, { workspaceId: t.a.workspaceId, taskId, jobId: id!, amountCents: 4, reason: 'quote for image' });
    return id!;
  });
  await waitFor(async () => ['CANCELLED', 'FAILED', 'SUCCEEDED'].includes((await prisma.generationJob.findUniqueOrThrow({ where: { id: jobId } })).status), 'the order settled by reconciliation');
  const later = await prisma.taskEvent.findMany({ where: { taskId, seq: { gt: endSeq } }, orderBy: { seq: 'asc' } });
  // The reconciliation's own write is the first event after the task's end (JOB_SUBMITTED or
  // JOB_CANCELLED); what the provider reports later comes by its callbacks, not asserted here (the
  // provider runs in this process in tests; deployed, its callbacks reach the API).
  const own = later[0];
  assert.ok(own && ['JOB_SUBMITTED', 'JOB_CANCELLED'].includes(own.type), JSON.stringify(later.map((e) => e.type)));
  assert.equal(own.workerId, workerId, 'reconciliation writes as the worker');
});
