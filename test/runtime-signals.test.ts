// The durable runtime under faults, signals: cancel racing a completion, pause and resume from the
// journal, cancel interrupting a long tool call, and inbox messages that arrive mid-step. Each test
// fails if its guarantee breaks.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ToolMessage } from '@langchain/core/messages';
import { signalTask } from '../server/services/tasks/signal-task.ts';
import { runTurn } from '../server/runtime/engine.ts';
import type { Script } from '../server/runtime/models/scripted-model.ts';
import { watchdogTick } from '../server/runtime/watchdog.ts';
import { eventually } from './helpers/produce.ts';
import { gate, type Harness, harness, newTask, TEST_TOOLS, tools } from './helpers/runtime-harness.ts';

describe('journal and resume rules', () => {
  let h: Harness;
  let scriptFor: Script = () => ({ content: 'nothing to do' });
  before(async () => {
    h = await harness('runtime', (ctx) => scriptFor(ctx), TEST_TOOLS);
  });
  after(async () => {
    await h.t.close();
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
    tools.freeze = g;
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
    const inv0 = tools.invocations;
    await signalTask(h.t.app.deps, h.viewer, { taskId: task.id, signal: 'RESUME' });
    const next = await h.t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id, status: 'QUEUED' } });
    assert.equal(next.number, 2);
    // The new turn first finishes the interrupted call (same id, replayed: the tool is idempotent),
    // then asks the model, which sees its result.
    assert.equal((await runTurn(h.t.app.deps.runtime, next.id, { workerId: 'w' })).outcome, 'completed');
    assert.equal(tools.invocations - inv0, 1);
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
    assert.ok(tools.longWaitAborted, 'the tool saw the abort');
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
});
