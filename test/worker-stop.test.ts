// A stopped worker takes no more wake-ups: a job sent after stop() is left for the next worker
// (before the fix, the stopping worker fetched it and marked it done without running the turn).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Viewer } from '../server/auth/viewer.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { eventually } from './helpers/produce.ts';

let t: TestApp;
before(async () => {
  // A slow watchdog, so only the wake-up job itself can get the task run within the test.
  t = await startTestApp('workerstop', {
    runtime: { leaseMs: 5000, watchdogMs: 600_000, staleQueuedMs: 600_000, workerConcurrency: 2, maxStepsPerTurn: 12, maxTurnsPerTask: 25, plugin: undefined },
  });
});
after(async () => {
  await t.close();
});

test('wake-ups sent after a worker stopped are run by the next worker, not swallowed', async () => {
  const viewer: Viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
  const first = await t.app.startWorker({ concurrency: 2 });
  await first.stop();
  const tasks: { id: string }[] = [];
  for (let i = 0; i < 4; i++) tasks.push(await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: `after stop ${i}` }));
  const second = await t.app.startWorker({ concurrency: 2 });
  try {
    await eventually(
      async () => (await t.app.deps.prisma.task.count({ where: { id: { in: tasks.map((x) => x.id) }, status: 'COMPLETED' } })) === tasks.length,
      'all tasks completed by the second worker',
      20_000,
    );
  } finally {
    await second.stop();
  }
  const jobs = await t.app.deps.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'atelier-turn'`);
  assert.ok(jobs[0]!.n >= tasks.length);
});
