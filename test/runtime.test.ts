// The durable runtime under faults: each test fails if its guarantee breaks.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ToolMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { transitionTask } from '../server/services/tasks/transition-task.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { signalTask } from '../server/services/tasks/signal-task.ts';
import type { Viewer } from '../server/auth/viewer.ts';
import { runTurn } from '../server/runtime/engine.ts';
import { ScriptedChatModel, type Script } from '../server/runtime/models/scripted-model.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { defineTool, type ToolDef } from '../server/runtime/tools/types.ts';
import { watchdogTick } from '../server/runtime/watchdog.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { eventually } from './helpers/produce.ts';

const LEASE_MS = 400;

/** A promise that a test resolves by hand: freezes a tool (or model call) at a chosen instant. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

type Harness = { t: TestApp; model: ScriptedChatModel; viewer: Viewer };

async function harness(label: string, script: Script, tools: ToolDef[]): Promise<Harness> {
  const model = new ScriptedChatModel(script);
  const t = await startTestApp(
    label,
    { runtime: { leaseMs: LEASE_MS, watchdogMs: 100, staleQueuedMs: 300, workerConcurrency: 2, maxStepsPerTurn: 12, maxTurnsPerTask: 25, plugin: undefined } },
    { models: scriptedProvider(model), tools },
  );
  const viewer: Viewer = {
    userId: t.a.ownerId,
    credentialId: 'test',
    scopes: new Set(['READ', 'WRITE', 'APPROVE']),
    memberships: new Map([[t.a.workspaceId, 'OWNER']]),
  };
  return { t, model, viewer };
}

async function newTask(h: Harness, title: string) {
  const task = await createTask(h.t.app.deps, h.viewer, { workspaceId: h.t.a.workspaceId, title });
  const turn = await h.t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id } });
  return { task, turnId: turn.id };
}

async function leaseExpired(h: Harness, turnId: string) {
  await eventually(async () => {
    const r = await h.t.app.deps.prisma.$queryRawUnsafe<{ expired: boolean }[]>(
      'SELECT lease_expires_at < now() AS expired FROM turns WHERE id = $1::uuid',
      turnId,
    );
    return r[0]?.expired === true;
  }, 'lease expiry', 10_000);
}

async function eventTypes(h: Harness, taskId: string) {
  return (await h.t.app.deps.prisma.taskEvent.findMany({ where: { taskId }, orderBy: { seq: 'asc' } })).map((e) => e.type);
}

describe('journal and resume rules', () => {
  // One effect store for the idempotent tool: effects are keyed by idempotency key.
  const effects = new Map<string, number>();
  let freeze: ReturnType<typeof gate> | null = null;
  let invocations = 0;
  const slowWrite = defineTool({
    name: 'slow_write',
    domain: 'core',
    description: 'Writes a value (idempotent by key).',
    input: z.object({ value: z.string() }),
    output: z.object({ written: z.string() }),
    safety: 'IDEMPOTENT',
    async run(input, ctx) {
      invocations++;
      const f = freeze;
      freeze = null;
      if (f) await f.opened; // the first invocation freezes
      effects.set(ctx.idempotencyKey, (effects.get(ctx.idempotencyKey) ?? 0) + 1);
      return { written: input.value };
    },
  });
  let chargeGate: ReturnType<typeof gate> | null = null;
  let charges = 0;
  const charge = defineTool({
    name: 'charge',
    domain: 'core',
    description: 'Charges money. Must never run twice.',
    input: z.object({ cents: z.number().int() }),
    output: z.object({ charged: z.number() }),
    safety: 'AT_MOST_ONCE',
    async run(input) {
      charges++;
      if (chargeGate) await chargeGate.opened;
      return { charged: input.cents };
    },
    async verify() {
      return { happened: 'unknown' as const, detail: 'the payment provider has no lookup' };
    },
  });

  let longWaitAborted = false;
  const longWait = defineTool({
    name: 'long_wait',
    domain: 'core',
    description: 'Waits a long time (a render, say); stops when told to.',
    input: z.object({}),
    output: z.object({ waited: z.boolean() }),
    safety: 'READ_ONLY',
    async run(_input, ctx) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, 60_000);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          longWaitAborted = true;
          reject(new Error('aborted'));
        });
      });
      return { waited: true };
    },
  });

  let h: Harness;
  let scriptFor: Script = () => ({ content: 'nothing to do' });
  before(async () => {
    h = await harness('runtime', (ctx) => scriptFor(ctx), [slowWrite, charge, longWait]);
  });
  after(async () => {
    await h.t.close();
  });

  test('happy path: decision committed before tools run, stable call ids, events in order', async () => {
    scriptFor = ({ call }) =>
      call % 2 === 0
        ? { content: 'Noting the plan.', toolCalls: [{ name: 'add_note', args: { text: 'plan' } }] }
        : { content: 'Done.', toolCalls: [{ name: 'complete_task', args: { summary: 'delivered the plan' } }] };
    const before = h.model.calls;
    const { task, turnId } = await newTask(h, 'happy');
    const r = await runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w' });
    assert.equal(r.outcome, 'completed');
    assert.equal(h.model.calls - before, 2);
    const calls = await h.t.app.deps.prisma.toolCall.findMany({ where: { taskId: task.id }, orderBy: [{ stepIndex: 'asc' }, { callIndex: 'asc' }] });
    assert.deepEqual(calls.map((c) => [c.id, c.name, c.status]), [
      [`${turnId}:0:0`, 'add_note', 'DONE'],
      [`${turnId}:1:0`, 'complete_task', 'DONE'],
    ]);
    const row = await h.t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } });
    assert.equal(row.status, 'COMPLETED');
    assert.equal(row.summary, 'delivered the plan');
    assert.deepEqual(await eventTypes(h, task.id), [
      'TASK_CREATED',
      'TASK_STATUS_CHANGED', // QUEUED → RUNNING
      'TURN_STARTED',
      'STEP_DECIDED',
      'MODEL_CALL',
      'TOOL_CALL_STARTED',
      'NOTE',
      'TOOL_CALL_DONE',
      'STEP_DECIDED',
      'MODEL_CALL',
      'TOOL_CALL_STARTED',
      'TOOL_CALL_DONE',
      'TURN_ENDED',
      'TASK_STATUS_CHANGED', // → COMPLETED
    ]);
    const modelCall = await h.t.app.deps.prisma.taskEvent.findFirstOrThrow({ where: { taskId: task.id, type: 'MODEL_CALL' } });
    assert.equal(modelCall.redaction, 'PRIVATE', 'model internals never reach clients');
  });

  test('the frozen worker: takeover at generation 2 completes the call with the same key, no new model call; the old commit is rejected', async () => {
    scriptFor = () => ({
      content: 'Write, then finish.',
      toolCalls: [
        { name: 'slow_write', args: { value: 'v1' } },
        { name: 'complete_task', args: { summary: 'written' } },
      ],
    });
    const before = h.model.calls;
    const inv0 = invocations;
    freeze = gate();
    const frozen = freeze;
    const { task, turnId } = await newTask(h, 'frozen');
    // Worker 1 claims, commits the decision, marks slow_write STARTED, then freezes inside the tool
    // and stops renewing its lease.
    const w1 = runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w1', renew: false });
    await eventually(async () => (await h.t.app.deps.prisma.toolCall.findFirst({ where: { taskId: task.id, name: 'slow_write' } }))?.status === 'STARTED', 'STARTED');
    await leaseExpired(h, turnId);
    const w2 = await runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w2' });
    assert.deepEqual(w2, { outcome: 'completed', generation: 2 });
    frozen.open(); // worker 1 wakes up and tries to record its result
    assert.deepEqual(await w1, { outcome: 'lease-lost', generation: 1 });

    const turn = await h.t.app.deps.prisma.turn.findUniqueOrThrow({ where: { id: turnId } });
    assert.equal(turn.status, 'COMPLETED');
    assert.equal(turn.generation, 2);
    assert.equal(h.model.calls - before, 1, 'the persisted decision was never re-asked');
    const call = await h.t.app.deps.prisma.toolCall.findFirstOrThrow({ where: { taskId: task.id, name: 'slow_write' } });
    assert.equal(call.status, 'DONE');
    assert.deepEqual(call.result, { written: 'v1' });
    assert.equal(call.attempts, 2);
    assert.equal(invocations - inv0, 2, 'replayed once by the new worker');
    assert.equal(effects.get(call.id), 2, 'both runs used the same idempotency key');
    const done = await h.t.app.deps.prisma.taskEvent.count({ where: { taskId: task.id, type: 'TOOL_CALL_DONE', payload: { path: ['tool'], equals: 'slow_write' } } });
    assert.equal(done, 1, 'exactly one tool result');
    assert.equal((await h.t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status, 'COMPLETED');
  });

  test('AT_MOST_ONCE: a STARTED call after a crash becomes OUTCOME_UNKNOWN for the model and is not re-run', async () => {
    scriptFor = ({ messages }) => {
      const unknown = messages.find((m) => m instanceof ToolMessage && String(m.content).includes('OUTCOME_UNKNOWN'));
      if (unknown) return { content: 'Checked.', toolCalls: [{ name: 'complete_task', args: { summary: 'charge outcome unknown; reported' } }] };
      return { content: 'Charging.', toolCalls: [{ name: 'charge', args: { cents: 500 } }] };
    };
    const before = h.model.calls;
    const c0 = charges;
    chargeGate = gate();
    const g = chargeGate;
    const { task, turnId } = await newTask(h, 'charge');
    const w1 = runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w1', renew: false });
    await eventually(async () => charges - c0 === 1, 'charge started');
    await leaseExpired(h, turnId);
    chargeGate = null;
    const w2 = await runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w2' });
    assert.equal(w2.outcome, 'completed');
    g.open();
    assert.equal((await w1).outcome, 'lease-lost');
    assert.equal(charges - c0, 1, 'never charged twice');
    assert.equal(h.model.calls - before, 2, 'the model was asked again, with the unknown outcome');
    const call = await h.t.app.deps.prisma.toolCall.findFirstOrThrow({ where: { taskId: task.id, name: 'charge' } });
    assert.equal(call.status, 'OUTCOME_UNKNOWN');
    assert.match(JSON.stringify(call.result), /no lookup/);
    const seen = h.model.received.at(-1)!.find((m) => m instanceof ToolMessage);
    assert.match(String(seen?.content), /OUTCOME_UNKNOWN/);
  });

  test('a lost queue message: the watchdog finds the turn from the database and a worker finishes it', async () => {
    scriptFor = () => ({ content: 'ok', toolCalls: [{ name: 'complete_task', args: { summary: 'recovered' } }] });
    const { task, turnId } = await newTask(h, 'lost job');
    const { prisma } = h.t.app.deps;
    // The job vanishes (a broker hiccup, an operator, a bug) after the turn committed.
    await prisma.$executeRawUnsafe(`DELETE FROM pgboss.job WHERE name = 'atelier-turn' AND data->>'turnId' = $1`, turnId);
    await prisma.$executeRawUnsafe(`UPDATE turns SET enqueued_at = now() - interval '1 hour' WHERE id = $1::uuid`, turnId);
    const report = await watchdogTick(h.t.app.deps.runtime, { staleMs: 1000 });
    assert.ok(report.staleQueued >= 1);
    const jobs = await prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'atelier-turn' AND data->>'turnId' = $1`,
      turnId,
    );
    assert.equal(jobs[0]!.n, 1, 'exactly one wake-up re-sent');
    const worker = await h.t.app.startWorker({ concurrency: 1 });
    try {
      await eventually(async () => (await prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status === 'COMPLETED', 'task completed', 20_000);
    } finally {
      await worker.stop();
    }
  });

  test('cancel racing a completion: exactly one terminal state, and nothing revives the task', async () => {
    scriptFor = () => ({ content: 'finishing', toolCalls: [{ name: 'complete_task', args: { summary: 'raced' } }] });
    const { prisma } = h.t.app.deps;
    const outcomes = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const { task, turnId } = await newTask(h, `race ${i}`);
      const [r] = await Promise.allSettled([
        runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w' }),
        signalTask(h.t.app.deps, h.viewer, { taskId: task.id, signal: 'CANCEL', reason: 'changed my mind' }).catch((e) => e),
      ]);
      assert.equal(r.status, 'fulfilled');
      const changes = await prisma.taskEvent.findMany({ where: { taskId: task.id, type: 'TASK_STATUS_CHANGED' } });
      const ends = changes.filter((e) => ['COMPLETED', 'CANCELLED', 'FAILED'].includes((e.payload as { to: string }).to));
      assert.equal(ends.length, 1, `exactly one terminal event (task ${i})`);
      const row = await prisma.task.findUniqueOrThrow({ where: { id: task.id } });
      outcomes.add(row.status);
      // A late wake-up, the watchdog, and another worker change nothing.
      await watchdogTick(h.t.app.deps.runtime, { staleMs: 0 });
      assert.equal((await runTurn(h.t.app.deps.runtime, turnId, { workerId: 'late' })).outcome, 'not-claimed');
      const again = await prisma.task.findUniqueOrThrow({ where: { id: task.id } });
      assert.equal(again.status, row.status);
      assert.equal(await prisma.turn.count({ where: { taskId: task.id, status: { in: ['QUEUED', 'RUNNING'] } } }), 0);
    }
    assert.ok(outcomes.size >= 1);
  });

  test('pause stops the turn at the next boundary; resume continues from the journal', async () => {
    const g = gate();
    let paused = false;
    scriptFor = ({ messages }) =>
      messages.some((m) => m instanceof ToolMessage)
        ? { content: 'finish', toolCalls: [{ name: 'complete_task', args: { summary: 'resumed and done' } }] }
        : { content: 'write', toolCalls: [{ name: 'slow_write', args: { value: 'p' } }] };
    freeze = g;
    const before = h.model.calls;
    const { task, turnId } = await newTask(h, 'pause');
    const w = runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w' });
    await eventually(async () => (await h.t.app.deps.prisma.toolCall.findFirst({ where: { taskId: task.id } }))?.status === 'STARTED', 'tool running');
    await signalTask(h.t.app.deps, h.viewer, { taskId: task.id, signal: 'PAUSE' });
    paused = true;
    g.open();
    const r = await w;
    assert.ok(paused);
    // The running tool could not record its result after the pause (the boundary is the commit).
    assert.equal(r.outcome, 'stopped');
    assert.equal((await h.t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status, 'PAUSED');
    assert.equal(h.model.calls - before, 1);
    const inv0 = invocations;
    await signalTask(h.t.app.deps, h.viewer, { taskId: task.id, signal: 'RESUME' });
    const next = await h.t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id, status: 'QUEUED' } });
    assert.equal(next.number, 2);
    // The new turn first finishes the interrupted call (same id, replayed: the tool is idempotent),
    // then asks the model, which sees its result.
    assert.equal((await runTurn(h.t.app.deps.runtime, next.id, { workerId: 'w' })).outcome, 'completed');
    assert.equal(invocations - inv0, 1);
    const call = await h.t.app.deps.prisma.toolCall.findFirstOrThrow({ where: { taskId: task.id, name: 'slow_write' } });
    assert.equal(call.status, 'DONE');
    assert.equal(call.turnId, turnId, 'the call of turn 1 was finished, not re-decided');
    assert.equal(await h.t.app.deps.prisma.toolCall.count({ where: { taskId: task.id, name: 'slow_write' } }), 1);
    assert.equal(h.model.calls - before, 2);
    assert.equal((await h.t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status, 'COMPLETED');
  });

  test('cancel interrupts a long tool call promptly (through its abort signal), not at its end', async () => {
    scriptFor = () => ({ content: 'rendering', toolCalls: [{ name: 'long_wait', args: {} }] });
    const { task, turnId } = await newTask(h, 'long');
    const w = runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w' });
    await eventually(async () => (await h.t.app.deps.prisma.toolCall.findFirst({ where: { taskId: task.id } }))?.status === 'STARTED', 'tool running');
    const cancelledAt = Date.now();
    await signalTask(h.t.app.deps, h.viewer, { taskId: task.id, signal: 'CANCEL' });
    assert.equal((await w).outcome, 'stopped');
    assert.ok(longWaitAborted, 'the tool saw the abort');
    assert.ok(Date.now() - cancelledAt < 10_000, 'well before the tool would have finished');
    const turn = await h.t.app.deps.prisma.turn.findUniqueOrThrow({ where: { id: turnId } });
    assert.equal(turn.status, 'STOPPED');
    assert.equal((await h.t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status, 'CANCELLED');
  });

  test('inbox: a message that arrives during a model call is consumed by the next step, and a signal key applies once', async () => {
    const g = gate();
    let firstCall = true;
    scriptFor = async ({ messages }) => {
      if (firstCall) {
        firstCall = false;
        await g.opened;
        return { content: 'step 0', toolCalls: [{ name: 'add_note', args: { text: 'first' } }] };
      }
      const ctx = messages.map((m) => String(m.content)).join('\n');
      return ctx.includes('use dark blue')
        ? { content: 'applied', toolCalls: [{ name: 'complete_task', args: { summary: 'dark blue' } }] }
        : { content: 'step', toolCalls: [{ name: 'add_note', args: { text: 'waiting' } }] };
    };
    const { task, turnId } = await newTask(h, 'inbox');
    const w = runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w' });
    await eventually(() => !firstCall, 'model call in progress');
    for (let i = 0; i < 2; i++) {
      await signalTask(h.t.app.deps, h.viewer, { taskId: task.id, signal: 'REVISE', text: 'No white background, use dark blue', idempotencyKey: 'rev-1' });
    }
    g.open();
    assert.equal((await w).outcome, 'completed');
    const items = await h.t.app.deps.prisma.inboxItem.findMany({ where: { taskId: task.id } });
    assert.equal(items.length, 1, 'the same key applied once');
    assert.equal(items[0]!.consumedTurnId, turnId);
    assert.equal(items[0]!.consumedStep, 1, 'delivered during step 0, processed by step 1');
    assert.equal(await h.t.app.deps.prisma.taskEvent.count({ where: { taskId: task.id, type: 'SIGNAL_RECEIVED' } }), 1);
  });

  test('transitions by a superseded worker are refused: a stale generation cannot complete a task', async () => {
    scriptFor = () => ({ content: 'x', toolCalls: [{ name: 'complete_task', args: { summary: 's' } }] });
    const { task } = await newTask(h, 'direct');
    await transitionTask(h.t.app.deps, { taskId: task.id, transition: 'cancel', actor: { kind: 'USER' } });
    const turn = await h.t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id } });
    assert.equal((await runTurn(h.t.app.deps.runtime, turn.id, { workerId: 'w' })).outcome, 'not-claimed');
    assert.equal((await h.t.app.deps.prisma.turn.findUniqueOrThrow({ where: { id: turn.id } })).status, 'STOPPED');
  });
});
