// The durable runtime under faults, the journal: decisions committed before tools run, takeover by
// a new generation, at-most-once calls after a crash, a lost wake-up, stale generations refused.
// Each test fails if its guarantee breaks. Signals (cancel, pause, revise): runtime-signals.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ToolMessage } from '@langchain/core/messages';
import { transitionTask } from '../server/services/tasks/transition-task.ts';
import { runTurn } from '../server/runtime/engine.ts';
import type { Script } from '../server/runtime/models/scripted-model.ts';
import { watchdogTick } from '../server/runtime/watchdog.ts';
import { eventually } from './helpers/produce.ts';
import { eventTypes, gate, type Harness, harness, leaseExpired, newTask, TEST_TOOLS, tools } from './helpers/runtime-harness.ts';

describe('journal and resume rules', () => {
  let h: Harness;
  let scriptFor: Script = () => ({ content: 'nothing to do' });
  before(async () => {
    h = await harness('runtime', (ctx) => scriptFor(ctx), TEST_TOOLS);
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
    const inv0 = tools.invocations;
    tools.freeze = gate();
    const frozen = tools.freeze;
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
    assert.equal(tools.invocations - inv0, 2, 'replayed once by the new worker');
    assert.equal(tools.effects.get(call.id), 2, 'both runs used the same idempotency key');
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
    const c0 = tools.charges;
    tools.chargeGate = gate();
    const g = tools.chargeGate;
    const { task, turnId } = await newTask(h, 'charge');
    const w1 = runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w1', renew: false });
    await eventually(async () => tools.charges - c0 === 1, 'charge started');
    await leaseExpired(h, turnId);
    tools.chargeGate = null;
    const w2 = await runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w2' });
    assert.equal(w2.outcome, 'completed');
    g.open();
    assert.equal((await w1).outcome, 'lease-lost');
    assert.equal(tools.charges - c0, 1, 'never charged twice');
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

  test('transitions by a superseded worker are refused: a stale generation cannot complete a task', async () => {
    scriptFor = () => ({ content: 'x', toolCalls: [{ name: 'complete_task', args: { summary: 's' } }] });
    const { task } = await newTask(h, 'direct');
    await transitionTask(h.t.app.deps, { taskId: task.id, transition: 'cancel', actor: { kind: 'USER' } });
    const turn = await h.t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id } });
    assert.equal((await runTurn(h.t.app.deps.runtime, turn.id, { workerId: 'w' })).outcome, 'not-claimed');
    assert.equal((await h.t.app.deps.prisma.turn.findUniqueOrThrow({ where: { id: turn.id } })).status, 'STOPPED');
  });
});
