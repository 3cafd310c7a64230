// Nothing stuck after a crash: an order whose submission was never recorded gets a future (the
// takeover or reconciliation submits it by its key), a step's order count is derived from its jobs,
// cancelling reaches the provider and settles by its answer, taken-over turns run before new work,
// processes report their heartbeats, and a feed opened at "now" says exactly where it starts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ToolMessage } from '@langchain/core/messages';
import type { Viewer } from '../server/auth/viewer.ts';
import { transactWithEvents } from '../server/channel/unit-of-work.ts';
import { cancelUnwantedJobs, ledgerSummary, orderGeneration, reconcileJobs, type JobDeps } from '../server/generation/jobs.ts';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { ProviderUnavailable, type GenerationRequest } from '../server/generation/types.ts';
import { runTurn } from '../server/runtime/engine.ts';
import { claimTurn } from '../server/runtime/lease.ts';
import { applyTransition } from '../server/store/tasks/apply-transition.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { readChecklist, writeChecklist } from '../server/store/checklist/write-checklist.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { signalTask } from '../server/services/tasks/signal-task.ts';
import { sendMessage } from '../server/services/messages/send-message.ts';
import { answerCard } from '../server/services/messages/answer-card.ts';
import { ChecklistItemSchema } from '../server/domain/checklist.ts';
import { assetIdForJob } from '../server/store/objects/create-asset.ts';
import { startTestApp, testConfig, type TestApp } from './helpers/app.ts';
import { wsClient } from './helpers/clients.ts';
import { eventually } from './helpers/produce.ts';

/** A provider whose next submissions never answer: the worker "dies" holding the order. */
class FreezingProvider extends SimulatedProvider {
  freeze = 0;
  /** Next submissions find the provider down (connection refused: nothing reached it). */
  down = 0;
  override async submit(req: GenerationRequest) {
    if (this.down > 0) {
      this.down--;
      throw new ProviderUnavailable('connection refused');
    }
    if (this.freeze > 0) {
      this.freeze--;
      return new Promise<never>(() => {});
    }
    return super.submit(req);
  }
}

let prompt = 'a harbour at night';
const model = new ScriptedChatModel(({ messages }) => {
  if (messages.some((m) => m instanceof ToolMessage)) return { content: 'waiting' };
  return { content: 'generating', toolCalls: [{ name: 'generate_image', args: { prompt, finishWhenDone: true } }] };
});

let t: TestApp;
let dir: string;
let provider: FreezingProvider;
let viewer: Viewer;
let jobs: JobDeps;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-recovery-'));
  provider = new FreezingProvider({ filesDir: dir, latencyMs: { IMAGE: 300, VIDEO: 4000 } });
  t = await startTestApp('recovery', { runtime: { ...testConfig().runtime, heartbeatMs: 200 } }, { models: scriptedProvider(model), provider });
  viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]), principal: 'HUMAN' };
  jobs = t.app.deps.jobs;
});
after(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const newTask = async (title: string) => createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title });
const req = (taskId: string, key: string, kind: GenerationRequest['kind'] = 'IMAGE') => ({
  workspaceId: t.a.workspaceId,
  taskId,
  kind,
  prompt: `order ${key}`,
  params: {},
  idempotencyKey: key,
});
const jobOf = (key: string) => t.app.deps.prisma.generationJob.findFirstOrThrow({ where: { idempotencyKey: key } });

describe('no job without a future', () => {
  test('reconciliation submits an order whose worker died before recording the submission', async () => {
    const task = await newTask('stuck order');
    provider.freeze = 1;
    void orderGeneration(jobs, req(task.id, 'stuck-1'));
    await eventually(async () => (await t.app.deps.prisma.generationJob.count({ where: { idempotencyKey: 'stuck-1' } })) === 1, 'the order');
    assert.equal((await jobOf('stuck-1')).status, 'SUBMITTING');
    const r = await reconcileJobs(jobs, { silentMs: 60_000, submittingMs: 0 });
    assert.equal(r.resubmitted, 1);
    await eventually(async () => (await jobOf('stuck-1')).status === 'SUCCEEDED', 'the order completes', 30_000);
    assert.deepEqual(await ledgerSummary(t.app.deps.prisma, { taskId: task.id }), { heldCents: 4, chargedCents: 4, releasedCents: 0, outstandingCents: 0, savedCents: 0 });
    assert.equal(provider.submits >= 1, true);
  });

  test('the takeover replaying the call submits an order left SUBMITTING (and only once upstream)', async () => {
    const task = await newTask('takeover order');
    provider.freeze = 1;
    void orderGeneration(jobs, { ...req(task.id, 'stuck-2'), turnGeneration: 1 });
    await eventually(async () => (await t.app.deps.prisma.generationJob.count({ where: { idempotencyKey: 'stuck-2' } })) === 1, 'the order');
    const before = provider.submits;
    // The same generation (the placer, still alive) leaves it alone: it is submitting it.
    const same = await orderGeneration(jobs, { ...req(task.id, 'stuck-2'), turnGeneration: 1 });
    assert.ok(same.kind === 'ordered' && same.job.status === 'SUBMITTING');
    assert.equal(provider.submits, before);
    const replay = await orderGeneration(jobs, { ...req(task.id, 'stuck-2'), turnGeneration: 2 });
    assert.equal(replay.kind, 'ordered');
    assert.ok(replay.kind === 'ordered' && replay.job.status !== 'SUBMITTING', 'the replay submitted it');
    assert.equal(provider.submits - before, 1);
    await eventually(async () => (await jobOf('stuck-2')).status === 'SUCCEEDED', 'completes', 30_000);
    const again = await orderGeneration(jobs, { ...req(task.id, 'stuck-2'), turnGeneration: 3 });
    assert.equal(provider.submits - before, 1, 'a finished order is never submitted again');
    assert.ok(again.kind === 'ordered');
    assert.equal(await t.app.deps.prisma.ledgerEntry.count({ where: { jobId: (await jobOf('stuck-2')).id } }), 2, 'one hold, one charge');
  });
});

describe('a provider that is down', () => {
  test('an order placed while the provider is unreachable waits, money held, and is submitted when it is back', async () => {
    const task = await newTask('provider down');
    provider.down = 1;
    const r = await orderGeneration(jobs, req(task.id, 'down-1'));
    assert.ok(r.kind === 'ordered');
    assert.equal(r.job.status, 'SUBMITTING', 'not failed: nothing reached the provider');
    assert.equal((await ledgerSummary(t.app.deps.prisma, { taskId: task.id })).outstandingCents, 4);
    await reconcileJobs(jobs, { silentMs: 60_000, submittingMs: 0 });
    await eventually(async () => (await jobOf('down-1')).status === 'SUCCEEDED', 'submitted once it is back', 30_000);
    assert.equal((await ledgerSummary(t.app.deps.prisma, { taskId: task.id })).outstandingCents, 0);
  });
});

describe('order counts are derived from jobs', () => {
  test('a failed or cancelled job never counts; a replayed order never counts twice', async () => {
    const task = await newTask('derived counts');
    const item = ChecklistItemSchema.parse({ id: 'poster-1', title: 'Poster 1', kind: 'IMAGE', count: 1 });
    await transactWithEvents(t.app.deps, (tx, emit) => writeChecklist(tx, emit, { taskId: task.id, actor: { kind: 'SYSTEM' }, reason: 'plan' }, () => [item]));
    const mk = (key: string, status: string, round = 0) =>
      t.app.deps.prisma.generationJob.create({
        data: { workspaceId: t.a.workspaceId, taskId: task.id, kind: 'IMAGE', provider: 'simulated', idempotencyKey: key, prompt: 'p', params: { checklistItemId: 'poster-1', checklistRound: round }, status: status as never },
      });
    await mk('d-failed', 'FAILED');
    await mk('d-cancelled', 'CANCELLED');
    await mk('d-old-round', 'RUNNING', 7);
    assert.equal((await readChecklist(t.app.deps.prisma, task.id))!.items[0]!.ordered, 0, 'no phantom order');
    await mk('d-live', 'RUNNING');
    assert.equal((await readChecklist(t.app.deps.prisma, task.id))!.items[0]!.ordered, 1);
    // Writing the checklist again (e.g. a replayed order) recounts instead of adding.
    for (let i = 0; i < 2; i++) {
      await transactWithEvents(t.app.deps, (tx, emit) => writeChecklist(tx, emit, { taskId: task.id, actor: { kind: 'SYSTEM' }, reason: 'again' }, (items) => items));
    }
    assert.equal((await readChecklist(t.app.deps.prisma, task.id))!.items[0]!.ordered, 1);
  });
});

describe('cancel reaches the provider', () => {
  test('CANCEL cancels the running job upstream: nothing made, the hold released, the task stays cancelled', async () => {
    prompt = 'a slow video render';
    const task = await newTask('cancel upstream');
    const id = await (async () => {
      const r = await orderGeneration(jobs, req(task.id, 'cancel-1', 'VIDEO'));
      assert.ok(r.kind === 'ordered');
      return r.job.id;
    })();
    await signalTask(t.app.deps, viewer, { taskId: task.id, signal: 'CANCEL' });
    await eventually(async () => (await t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id } })).status === 'CANCELLED', 'cancelled upstream', 30_000);
    const job = await t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id } });
    assert.equal((await provider.status(job.upstreamJobId!)).status, 'CANCELLED', 'the provider stopped it');
    assert.deepEqual(await ledgerSummary(t.app.deps.prisma, { taskId: task.id }), { heldCents: 40, chargedCents: 0, releasedCents: 40, outstandingCents: 0, savedCents: 0 });
    assert.equal(await t.app.deps.prisma.workspaceObject.count({ where: { id: assetIdForJob(id) } }), 0, 'nothing was made');
    assert.equal((await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status, 'CANCELLED');
  });

  test('a result made before the cancel arrived is charged and kept, and revives nothing', async () => {
    const task = await newTask('too late to cancel');
    const r = await orderGeneration(jobs, req(task.id, 'cancel-2'));
    assert.ok(r.kind === 'ordered');
    const upstream = r.job.upstreamJobId!;
    // Finished upstream, but its callback has not been applied yet.
    await eventually(async () => (await provider.status(upstream)).status === 'SUCCEEDED', 'made upstream', 30_000);
    await signalTask(t.app.deps, viewer, { taskId: task.id, signal: 'CANCEL' });
    await cancelUnwantedJobs(jobs, { taskId: task.id });
    await eventually(async () => (await jobOf('cancel-2')).status === 'SUCCEEDED', 'recorded', 30_000);
    assert.deepEqual(await ledgerSummary(t.app.deps.prisma, { taskId: task.id }), { heldCents: 4, chargedCents: 4, releasedCents: 0, outstandingCents: 0, savedCents: 0 });
    assert.equal((await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status, 'CANCELLED');
    assert.equal(await t.app.deps.prisma.workspaceObject.count({ where: { id: assetIdForJob(r.job.id) } }), 1, 'the result is kept as an object');
    assert.equal(await t.app.deps.prisma.turn.count({ where: { taskId: task.id, status: { in: ['QUEUED', 'RUNNING'] } } }), 0);
  });

  test('a step re-opened by a change of direction cancels the jobs of its old round', async () => {
    const task = await newTask('change of direction');
    const item = ChecklistItemSchema.parse({ id: 'shot-1', title: 'Shot 1', kind: 'VIDEO', count: 1 });
    await transactWithEvents(t.app.deps, (tx, emit) => writeChecklist(tx, emit, { taskId: task.id, actor: { kind: 'SYSTEM' }, reason: 'plan' }, () => [item]));
    const r = await orderGeneration(jobs, { ...req(task.id, 'shot-old', 'VIDEO'), params: { checklistItemId: 'shot-1', checklistRound: 0 } });
    assert.ok(r.kind === 'ordered');
    assert.equal(await cancelUnwantedJobs(jobs, { taskId: task.id }), 0, 'a wanted job is left alone');
    await transactWithEvents(t.app.deps, (tx, emit) =>
      writeChecklist(tx, emit, { taskId: task.id, actor: { kind: 'AGENT' }, reason: 'at night instead' }, (items) => items.map((i) => ({ ...i, round: i.round + 1, status: 'TODO' as const }))),
    );
    // No reconciliation runs here (no worker): the commit of the new checklist cancels it.
    await eventually(async () => (await jobOf('shot-old')).status === 'CANCELLED', 'the old round is cancelled', 30_000);
    assert.equal((await provider.status((await jobOf('shot-old')).upstreamJobId!)).status, 'CANCELLED', 'the provider stopped it');
    assert.equal((await ledgerSummary(t.app.deps.prisma, { taskId: task.id })).outstandingCents, 0);
  });

  test('a result that lands while a turn reads a change of direction never completes the task under that turn', async () => {
    // The state a change of direction sent while the jobs run leads to: the task waits on its job,
    // the signal's turn runs (the task stays WAITING) and has already read the instruction. The
    // last result arriving now must not deliver the old direction; the running turn decides.
    const task = await newTask('dawn instead');
    const item = ChecklistItemSchema.parse({ id: 'tune-1', title: 'Tune 1', kind: 'AUDIO', count: 1 });
    await transactWithEvents(t.app.deps, (tx, emit) => writeChecklist(tx, emit, { taskId: task.id, actor: { kind: 'SYSTEM' }, reason: 'plan' }, () => [item]));
    await transactWithEvents(t.app.deps, (tx, emit) => applyTransition(tx, emit, { taskId: task.id, from: 'QUEUED', transition: 'wait', actor: { kind: 'SYSTEM' }, reason: 'waiting for 1 tune' }));
    await signalTask(t.app.deps, viewer, { taskId: task.id, signal: 'REVISE', text: 'make it at dawn instead' });
    const turn = await t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id, status: 'QUEUED' } });
    const claim = await claimTurn(t.app.deps.runtime, turn.id, 'w-dawn');
    assert.ok(claim, 'the signal\'s turn is claimed');
    assert.equal((await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status, 'WAITING', 'a turn runs while the task waits');
    // Its step read the instruction (committed with its decision, before its tool calls run).
    await t.app.deps.prisma.inboxItem.updateMany({ where: { taskId: task.id, signal: 'REVISE' }, data: { consumedTurnId: turn.id, consumedStep: 0, consumedAt: new Date() } });
    const r = await orderGeneration(jobs, { ...req(task.id, 'dawn-old', 'AUDIO'), params: { checklistItemId: 'tune-1', checklistRound: 0 } });
    assert.ok(r.kind === 'ordered');
    await eventually(async () => (await jobOf('dawn-old')).status === 'SUCCEEDED', 'the old round finishes', 30_000);
    await eventually(async () => (await t.app.deps.prisma.inboxItem.count({ where: { taskId: task.id, signal: 'JOB_RESULT' } })) === 1, 'the result reaches the inbox', 30_000);
    const after = await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } });
    assert.equal(after.status, 'WAITING', 'not completed under the running turn');
    assert.equal(await t.app.deps.prisma.taskEvent.count({ where: { taskId: task.id, type: { in: ['TASK_DELIVERED', 'CONTINUATION_DECIDED'] } } }), 0, 'nothing delivered, nothing decided for the turn');
    const result = await t.app.deps.prisma.inboxItem.findFirstOrThrow({ where: { taskId: task.id, signal: 'JOB_RESULT' } });
    assert.equal(result.consumedTurnId, null, 'the result waits in the inbox for the turn to read');
    assert.deepEqual((await readChecklist(t.app.deps.prisma, task.id))!.items[0]!.artifacts, [`object:${assetIdForJob(r.job.id)}`], 'the result is linked to its step');
    await t.app.deps.prisma.turn.update({ where: { id: turn.id }, data: { status: 'STOPPED', endedAt: new Date() } });
    await signalTask(t.app.deps, viewer, { taskId: task.id, signal: 'CANCEL' });
  });

  test('a stop said in the main thread and confirmed on its card cancels the running job at the provider at once', async () => {
    const task = await newTask('Lighthouse film');
    const r = await orderGeneration(jobs, req(task.id, 'thread-stop', 'VIDEO'));
    assert.ok(r.kind === 'ordered');
    const asked = await sendMessage(t.app.deps, viewer, { workspaceId: t.a.workspaceId, text: 'stop the lighthouse film', idempotencyKey: 'thread-stop-1' });
    assert.ok(asked.cardId, 'a stop that abandons a running generation asks first');
    assert.ok(['QUEUED', 'RUNNING'].includes((await jobOf('thread-stop')).status), 'nothing is cancelled before the answer');
    await answerCard(t.app.deps, viewer, { cardId: asked.cardId!, optionId: 'stop', idempotencyKey: 'thread-stop-2' });
    // No worker and no reconciliation run in this file: only the cancel's own commit can reach the provider.
    await eventually(async () => (await jobOf('thread-stop')).status === 'CANCELLED', 'cancelled upstream', 10_000);
    assert.equal((await provider.status((await jobOf('thread-stop')).upstreamJobId!)).status, 'CANCELLED');
    assert.deepEqual(await ledgerSummary(t.app.deps.prisma, { taskId: task.id }), { heldCents: 40, chargedCents: 0, releasedCents: 40, outstandingCents: 0, savedCents: 0 });
  });
});

describe('operating it', () => {
  test('a worker reports readiness and heartbeats, listed for owners only; its id is on the turns and jobs it runs', async () => {
    prompt = 'a lighthouse';
    // Only this test's task is for the worker: earlier tests' tasks were driven by hand.
    await t.app.deps.prisma.turn.updateMany({ where: { status: 'QUEUED' }, data: { status: 'STOPPED', endedAt: new Date() } });
    const w = await t.app.startWorker({ concurrency: 1 });
    try {
      const task = await newTask('who ran it');
      await eventually(async () => (await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status === 'COMPLETED', 'completed', 60_000);
      const started = await t.app.deps.prisma.taskEvent.findFirstOrThrow({ where: { taskId: task.id, type: 'TURN_STARTED' } });
      assert.equal((started.payload as { workerId?: string }).workerId, w.workerId);
      assert.equal((await t.app.deps.prisma.generationJob.findFirstOrThrow({ where: { taskId: task.id } })).workerId, w.workerId);
      const q = '{ viewer { runtime { processes { id kind alive running readyAt lastBeatAt } } } }';
      const owner = await (await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${t.a.ownerToken}` }, body: JSON.stringify({ query: q }) })).json();
      const mine = owner.data.viewer.runtime.processes.find((p: { id: string }) => p.id === w.workerId);
      assert.ok(mine && mine.alive && mine.kind === 'WORKER' && mine.readyAt, JSON.stringify(owner));
      assert.ok(owner.data.viewer.runtime.processes.some((p: { kind: string; alive: boolean }) => p.kind === 'API' && p.alive));
      const viewerRes = await (await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${t.a.viewerToken}` }, body: JSON.stringify({ query: q }) })).json();
      assert.equal(viewerRes.errors[0].extensions.code, 'FORBIDDEN');
    } finally {
      await w.stop();
    }
    const row = await t.app.deps.prisma.runtimeProcess.findUniqueOrThrow({ where: { id: w.workerId } });
    assert.ok(row.stoppedAt, 'a stopped worker says so');
  });

  test('/health/live and /health/ready answer', async () => {
    for (const path of ['/health/live', '/health/ready', '/health']) {
      const r = await fetch(`${t.url}${path}`);
      assert.equal(r.status, 200, path);
      assert.equal((await r.json()).ok, true);
    }
  });

  test('a taken-over turn runs while every new-work slot is busy', async () => {
    // One new-work slot, busy with a long model call; the dead worker's turn still starts at once.
    const slow = new ScriptedChatModel(() => ({ content: 'thinking', toolCalls: [{ name: 'complete_task', args: { summary: 'ok' } }] }), { latencyMs: 4000 });
    const app2 = await startTestApp('recoveryfirst', { runtime: { ...testConfig().runtime, watchdogMs: 100, leaseMs: 1000 } }, { models: scriptedProvider(slow), provider: new SimulatedProvider({ filesDir: dir }) });
    try {
      const v: Viewer = { ...viewer, userId: app2.a.ownerId, memberships: new Map([[app2.a.workspaceId, 'OWNER']]) };
      const orphan = await createTask(app2.app.deps, v, { workspaceId: app2.a.workspaceId, title: 'orphan' });
      // Another worker holds this turn (its lease still live).
      await app2.app.deps.prisma.turn.updateMany({ where: { taskId: orphan.id }, data: { status: 'RUNNING', generation: 1, leaseOwner: 'other', leaseExpiresAt: new Date(Date.now() + 600_000), enqueuedAt: new Date(Date.now() - 60_000) } });
      await app2.app.deps.prisma.task.update({ where: { id: orphan.id }, data: { status: 'RUNNING' } });
      const w = await app2.app.startWorker({ concurrency: 1 });
      try {
        const busy = await createTask(app2.app.deps, v, { workspaceId: app2.a.workspaceId, title: 'busy' });
        await eventually(async () => (await app2.app.deps.prisma.taskEvent.count({ where: { taskId: busy.id, type: 'TURN_STARTED' } })) === 1, 'the busy turn started', 20_000);
        // Now the other worker dies: its lease expires while our only new-work slot is busy.
        await app2.app.deps.prisma.turn.updateMany({ where: { taskId: orphan.id }, data: { leaseExpiresAt: new Date(Date.now() - 1000) } });
        await eventually(
          async () => (await app2.app.deps.prisma.taskEvent.count({ where: { taskId: orphan.id, type: 'TURN_STARTED', payload: { path: ['takeover'], equals: true } } })) === 1,
          'the takeover started',
          20_000,
        );
        const busyDone = await app2.app.deps.prisma.task.findUniqueOrThrow({ where: { id: busy.id } });
        assert.notEqual(busyDone.status, 'COMPLETED', 'the takeover did not wait for the busy slot');
      } finally {
        await w.stop();
      }
    } finally {
      await app2.close();
    }
  });
});

describe('live from now, provably', () => {
  test('workspaceFeed opened without a cursor first says where it starts; resuming from there misses nothing', async () => {
    const client = wsClient(t.url, t.a.ownerToken);
    const items: { __typename: string; cursor?: string; type?: string; task?: { title: string } }[] = [];
    const stop = client.subscribe<{ workspaceFeed: (typeof items)[number] }>(
      { query: 'subscription { workspaceFeed { __typename ... on FeedStarted { cursor resumed } ... on TaskEvent { type cursor task { title } } } }' },
      { next: (r) => r.data && items.push(r.data.workspaceFeed), error: () => {}, complete: () => {} },
    );
    await eventually(() => items.length >= 1, 'the first item');
    assert.equal(items[0]!.__typename, 'FeedStarted');
    const start = items[0]!.cursor!;
    await newTask('after the feed opened');
    await eventually(() => items.some((i) => i.type === 'TASK_CREATED' && i.task?.title === 'after the feed opened'), 'the new event');
    stop();
    // Resuming from the starting cursor replays exactly what the live feed delivered, in order.
    const replay: typeof items = [];
    const stop2 = client.subscribe<{ workspaceFeed: (typeof items)[number] }>(
      { query: 'subscription($a: String) { workspaceFeed(after: $a) { __typename ... on FeedStarted { cursor resumed } ... on TaskEvent { type cursor } } }', variables: { a: start } },
      { next: (r) => r.data && replay.push(r.data.workspaceFeed), error: () => {}, complete: () => {} },
    );
    const liveCursors = items.slice(1).map((i) => i.cursor);
    await eventually(() => replay.length >= liveCursors.length + 1, 'the replay');
    assert.equal(replay[0]!.cursor, start);
    assert.deepEqual(replay.slice(1, liveCursors.length + 1).map((i) => i.cursor), liveCursors);
    stop2();
    await client.dispose();
  });
});
