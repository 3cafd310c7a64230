// Several API server processes on one database: events written through one process reach
// subscribers of another (LISTEN/NOTIFY wake-ups, content read from the database), and a client
// whose server dies resumes on another one with nothing missed or doubled.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createPrisma } from '../server/db/client.ts';
import { initWorkspace } from '../server/services/workspaces/init-workspace.ts';
import { collect, gqlOk, sseClient, toGlobalId, wsClient } from './helpers/clients.ts';
import { createTestDatabase } from './helpers/db.ts';
import { CreateTask, SignalTask, TaskEventsSub, UpdateTask } from './helpers/documents.ts';
import { startServerProcess, type ServerProcess } from './helpers/process.ts';
import { range } from './helpers/produce.ts';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let s1: ServerProcess;
let s2: ServerProcess;
let token: string;
let workspaceGid: string;

before(async () => {
  db = await createTestDatabase('multiproc');
  const prisma = createPrisma(db.url, { max: 1 });
  const init = await initWorkspace(prisma, { workspaceName: 'Multi' });
  await prisma.$disconnect();
  token = init.token;
  workspaceGid = toGlobalId('Workspace', init.workspace.id);
  // A long safety poll, so delivery across processes has to come from LISTEN/NOTIFY.
  const env = { DATABASE_URL: db.url, ATELIER_EVENT_POLL_MS: '60000' };
  // API-only processes: this test is about the channel; no worker acts on the tasks.
  [s1, s2] = await Promise.all([startServerProcess(env, 60_000, ['--api-only']), startServerProcess(env, 60_000, ['--api-only'])]);
});

after(async () => {
  await Promise.all([s1?.stop(), s2?.stop()]);
  await db?.drop();
});

test('a producer on server 1 and subscribers on server 2 (WS and SSE) see every event once, in order', async () => {
  assert.notEqual(s1.url, s2.url);
  const created = await gqlOk(s1.url, token, CreateTask, { input: { workspaceId: workspaceGid, title: 'cross' } });
  const taskId = created.createTask.task.id;
  const ws = wsClient(s2.url, token);
  const live = collect(ws, TaskEventsSub, { taskId, after: 0 });
  await live.collector.until((xs) => xs.length === 1, 10_000, 'TASK_CREATED via server 2');

  const N = 120;
  const producing = (async () => {
    for (let i = 0; i < N; i++) {
      if (i % 10 === 0) await gqlOk(s1.url, token, SignalTask, { input: { taskId, signal: i % 20 === 0 ? 'PAUSE' : 'RESUME' } });
      else await gqlOk(s1.url, token, UpdateTask, { input: { taskId, summary: `step ${i}` } });
    }
  })();
  // A late SSE subscriber on server 2 joins mid-stream from seq 10.
  await live.collector.until((xs) => xs.length >= 20, 20_000, '20 events');
  const sse = sseClient(s2.url, token);
  const late = collect(sse, TaskEventsSub, { taskId, after: 10 });
  await producing;
  const total = N + 1;
  await live.collector.until((xs) => xs.length >= total, 20_000, `${total} events on WS`);
  await late.collector.until((xs) => xs.length >= total - 10, 20_000, 'SSE catch-up');
  assert.deepEqual(live.collector.items.map((x) => x.taskEvents.seq), range(1, total));
  assert.deepEqual(late.collector.items.map((x) => x.taskEvents.seq), range(11, total));
  live.stop();
  late.stop();
  await ws.dispose();
  sse.dispose();
});

test('when a server process dies mid-stream, the client resumes on the other one from its last seq', async () => {
  const created = await gqlOk(s1.url, token, CreateTask, { input: { workspaceId: workspaceGid, title: 'failover' } });
  const taskId = created.createTask.task.id;
  const ws2 = wsClient(s2.url, token);
  const first = collect(ws2, TaskEventsSub, { taskId, after: 0 });
  const producing = (async () => {
    for (let i = 0; i < 80; i++) await gqlOk(s1.url, token, UpdateTask, { input: { taskId, summary: `v${i}` } });
  })();
  await first.collector.until((xs) => xs.length >= 15, 20_000, '15 events');
  await s2.stop('SIGKILL'); // the process is gone, not shut down politely
  await first.collector.untilDone();
  const seen = first.collector.items.map((x) => x.taskEvents.seq);
  const k = seen.at(-1)!;
  const ws1 = wsClient(s1.url, token);
  const second = collect(ws1, TaskEventsSub, { taskId, after: k });
  await producing;
  await second.collector.until((xs) => xs.at(-1)?.taskEvents.seq === 81, 20_000, 'seq 81');
  assert.deepEqual([...seen, ...second.collector.items.map((x) => x.taskEvents.seq)], range(1, 81));
  second.stop();
  await ws1.dispose();
  await ws2.dispose();
});
