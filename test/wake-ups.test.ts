// Wake-ups by NOTIFY: a job sent to a `notify` queue commits with pg-boss's NOTIFY; the process's
// one LISTEN connection hears it and wakes this process's idle pg-boss workers of that queue, so a
// new task's turn and a message's memory extraction start at once instead of at the next poll.
// (How fast is a benchmark figure, bench:runtime; here: that the path exists and is the one used.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import type { Viewer } from '../server/auth/viewer.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { sendMessage } from '../server/services/messages/send-message.ts';
import { MEMORY_QUEUE } from '../server/services/memory/jobs.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { PGBOSS_NOTIFY_CHANNEL, TURN_QUEUE } from '../server/store/scheduler.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { eventually } from './helpers/produce.ts';

let t: TestApp;
let viewer: Viewer;
const model = new ScriptedChatModel(() => ({ content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: 'ok' } }] }));

before(async () => {
  t = await startTestApp('wakeups', {}, { models: scriptedProvider(model) });
  viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]), principal: 'HUMAN' };
});
after(() => t.close());

test("the channel name is the one pg-boss notifies on: a real send to a notify queue is heard there, with the queue's name", async () => {
  const listener = new pg.Client({ connectionString: t.dbUrl });
  await listener.connect();
  try {
    const heard: { channel: string; payload?: string }[] = [];
    listener.on('notification', (m) => heard.push(m));
    await listener.query(`LISTEN ${PGBOSS_NOTIFY_CHANNEL}`);
    await t.app.deps.scheduler.boss.createQueue('wake-check', { notify: true });
    await t.app.deps.scheduler.boss.send('wake-check', { n: 1 });
    await eventually(async () => heard.some((m) => m.channel === PGBOSS_NOTIFY_CHANNEL && m.payload === 'wake-check'), 'the NOTIFY of the send');
  } finally {
    await listener.end();
  }
});

test("a task's wake-up and a message's extraction reach this process's idle workers through the NOTIFY, not only by their poll", async () => {
  const boss = t.app.deps.scheduler.boss;
  const woken: string[] = [];
  const original = boss.notifyWorker.bind(boss);
  boss.notifyWorker = (id: string) => {
    woken.push(id);
    original(id);
  };
  const w = await t.app.startWorker({ concurrency: 1 });
  try {
    const ids = (queue: string) => new Set(((t.app.deps.scheduler as unknown as { workerIds: Map<string, Set<string>> }).workerIds.get(queue)) ?? []);
    const heardBefore = t.app.deps.listener.stats.notifications[PGBOSS_NOTIFY_CHANNEL] ?? 0;
    const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: 'woken', goal: 'say ok' });
    await eventually(async () => (await t.app.deps.prisma.taskEvent.count({ where: { taskId: task.id, type: 'TURN_STARTED' } })) === 1, 'the turn starts');
    assert.ok((t.app.deps.listener.stats.notifications[PGBOSS_NOTIFY_CHANNEL] ?? 0) > heardBefore, 'the listener heard the send');
    assert.ok(woken.some((id) => ids(TURN_QUEUE).has(id)), 'a turn-queue worker of this process was woken');
    woken.length = 0;
    await sendMessage(t.app.deps, viewer, { workspaceId: t.a.workspaceId, text: 'our brand colour is teal', idempotencyKey: 'wake-memory-1' });
    await eventually(async () => woken.some((id) => ids(MEMORY_QUEUE).has(id)), 'the memory worker is woken');
    await eventually(async () => (await t.app.deps.prisma.memoryVersion.count({ where: { workspaceId: t.a.workspaceId } })) > 0, 'the fact is extracted');
  } finally {
    boss.notifyWorker = original;
    await w.stop();
  }
});

test('a listener reconnect wakes every worker once (notifications sent while it was down are not waited for)', async () => {
  const s = t.app.deps.scheduler;
  const woken: string[] = [];
  const boss = s.boss;
  const original = boss.notifyWorker.bind(boss);
  boss.notifyWorker = (id: string) => void woken.push(id);
  try {
    s.track('wake-all-check', 'worker-a');
    s.track('wake-all-check-2', 'worker-b');
    s.wakeAll();
    assert.ok(woken.includes('worker-a') && woken.includes('worker-b'));
    woken.length = 0;
    s.wake('a-queue-nobody-works');
    assert.deepEqual(woken, []);
  } finally {
    boss.notifyWorker = original;
  }
});
