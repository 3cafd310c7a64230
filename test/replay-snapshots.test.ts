// Event sourcing, snapshots and deterministic replay of recorded runs.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { ToolMessage } from '@langchain/core/messages';
import type { Viewer } from '../server/auth/viewer.ts';
import { runTurn } from '../server/runtime/engine.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { replayTask } from '../server/runtime/replay.ts';
import { applyEvent, foldEvents, initialTaskState, loadTaskState, maybeSnapshot } from '../server/runtime/task-state.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { signalTask } from '../server/services/tasks/signal-task.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { eventually } from './helpers/produce.ts';

const NOTES = 22;
const model = new ScriptedChatModel(({ messages }) => {
  const notes = messages.filter((m) => m instanceof ToolMessage).length;
  const revised = messages.some((m) => String(m.content).includes('[revise from the user]'));
  if (notes < NOTES) return { content: `note ${notes}${revised ? ' (revised)' : ''}`, toolCalls: [{ name: 'add_note', args: { text: `n${notes}` } }] };
  return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: `${notes} notes` } }] };
});

let t: TestApp;
let viewer: Viewer;
let taskId: string;

before(async () => {
  t = await startTestApp('replay', {}, { models: scriptedProvider(model) });
  viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: 'Long run', goal: 'Write many notes' });
  taskId = task.id;
  // A revision arrives before the run: step 0 consumes it.
  await signalTask(t.app.deps, viewer, { taskId, signal: 'REVISE', text: 'shorter notes please' });
  // Run turns until the task ends (the step limit per turn splits the run into several turns).
  for (let i = 0; i < 10; i++) {
    const turn = await t.app.deps.prisma.turn.findFirst({ where: { taskId, status: 'QUEUED' } });
    if (!turn) break;
    await runTurn(t.app.deps.runtime, turn.id, { workerId: 'w' });
  }
});
after(async () => {
  await t.close();
});

describe('event-sourced task state', () => {
  test('the fold of the events matches the database, and snapshot + rest equals the full fold', async () => {
    const { prisma } = t.app.deps;
    const task = await prisma.task.findUniqueOrThrow({ where: { id: taskId } });
    assert.equal(task.status, 'COMPLETED');
    assert.ok(task.lastEventSeq > 100, `a long log (${task.lastEventSeq} events)`);
    await maybeSnapshot(prisma, taskId);
    await eventually(async () => (await prisma.taskSnapshot.count({ where: { taskId } })) >= 2, 'snapshots every 50 events');
    const events = await prisma.taskEvent.findMany({ where: { taskId }, orderBy: { seq: 'asc' } });
    const full = foldEvents(initialTaskState(), events);
    const loaded = await loadTaskState(prisma, taskId);
    assert.ok(loaded.snapshotSeq !== null && loaded.replayed < events.length, 'recovery replays only the events after the snapshot');
    assert.deepEqual(loaded.state, full);
    assert.equal(full.status, task.status);
    assert.equal(full.summary, task.summary);
    assert.equal(full.title, task.title);
    const calls = await prisma.toolCall.findMany({ where: { taskId } });
    assert.equal(Object.keys(full.toolCalls).length, calls.length);
    for (const c of calls) assert.equal(full.toolCalls[c.id]?.status, c.status, c.id);
    // Snapshots were taken near multiples of 50 events, not at the end only.
    const seqs = (await prisma.taskSnapshot.findMany({ where: { taskId }, orderBy: { seq: 'asc' } })).map((s) => s.seq);
    assert.ok(seqs[0]! >= 50 && seqs[0]! < task.lastEventSeq, `first snapshot at ${seqs[0]}`);
  });

  test('the fold refuses a gap in the sequence', () => {
    const s = applyEvent(initialTaskState(), { seq: 1, type: 'TASK_CREATED', payload: { title: 'x' } });
    assert.throws(() => applyEvent(s, { seq: 3, type: 'NOTE', payload: {} }), /does not follow/);
  });
});

describe('replay', () => {
  test('a recorded run replays without divergence (also through npm run replay)', async () => {
    const report = await replayTask(t.app.deps.prisma, taskId);
    assert.equal(report.divergence, null, JSON.stringify(report.divergence));
    assert.equal(report.steps, NOTES + 1);
    const gid = Buffer.from(`Task:${taskId}`).toString('base64');
    const out = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'replay', gid], {
      cwd: new URL('../', import.meta.url).pathname,
      env: { ...process.env, DATABASE_URL: t.dbUrl },
    });
    assert.match(out.stdout, /no divergence: 23 steps/);
  });

  test('a changed tool result is reported as the first divergence, at the step that read it', async () => {
    const { prisma } = t.app.deps;
    const target = await prisma.toolCall.findFirstOrThrow({ where: { taskId, name: 'add_note' }, orderBy: [{ turn: { number: 'asc' } }, { stepIndex: 'asc' }], skip: 4 });
    await prisma.toolCall.update({ where: { id: target.id }, data: { result: { noted: false } } });
    try {
      const report = await replayTask(prisma, taskId);
      assert.ok(report.divergence);
      assert.equal(report.divergence.kind, 'request');
      // The call was made in step s; the first request to include its result is the next step.
      const next = await prisma.step.findFirstOrThrow({ where: { taskId, requestDigest: { not: '' } }, orderBy: { createdAt: 'asc' }, skip: 5 });
      assert.equal(report.divergence.step, next.index);
      const content = (m: unknown) => JSON.parse((m as { content: string }).content) as { result: { noted: boolean } };
      assert.equal(content(report.divergence.expected).result.noted, true, 'recorded');
      assert.equal(content(report.divergence.actual).result.noted, false, 'replayed');
    } finally {
      await prisma.toolCall.update({ where: { id: target.id }, data: { result: { noted: true } } });
    }
    assert.equal((await replayTask(prisma, taskId)).divergence, null);
  });
});
