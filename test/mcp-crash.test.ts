// A worker PROCESS SIGKILLed during a call to an MCP server's tool, then replaced: what the takeover
// does with the call depends on its safety class, and a priced call's money ends settled once.
//  - AT_MOST_ONCE, the worker died after the server answered (crash point mcp.call.answered): the
//    call is never sent again; the model is handed OUTCOME_UNKNOWN; its hold is charged once (the
//    call may have happened) and the model is told so;
//  - IDEMPOTENT, same crash: the takeover sends it again with the SAME idempotency key in `_meta`;
//    one hold, one charge;
//  - in both, the task completes;
//  - a task cancelled while its dead worker's call was unfinished: the held price is settled by the
//    task's end (charged when the call may have reached the server, released when it was never sent).
// The MCP test server runs in this test's process and counts what really ran and with which key;
// the workers are the product's worker processes with a scripted model (test/fixtures/mcp-crash-plugin.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Viewer } from '../server/auth/viewer.ts';
import { IDEMPOTENCY_META_KEY } from '../server/runtime/mcp/bus.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { signalTask } from '../server/services/tasks/signal-task.ts';
import { settleMcpHoldsOfEndedTask } from '../server/runtime/mcp/settle-ended.ts';
import { registerMcpServer } from '../server/services/mcp/register-server.ts';
import { updateMcpServer } from '../server/services/mcp/update-server.ts';
import type { CrashPoint } from '../server/crash-points.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { startServerProcess, type ServerProcess } from './helpers/process.ts';
import { waitFor } from './helpers/wait.ts';
import { mcpCallTitle } from './fixtures/mcp-crash-plugin.ts';
import { startMcpTestServer, type McpTestServer } from './fixtures/mcp-test-server.ts';

let t: TestApp;
let srv: McpTestServer;
let viewer: Viewer;
const workers: ServerProcess[] = [];

function startWorker(crashAt?: CrashPoint) {
  return startServerProcess(
    {
      DATABASE_URL: t.dbUrl,
      ATELIER_RUNTIME_PLUGIN: 'test/fixtures/mcp-crash-plugin.ts',
      ATELIER_LEASE_MS: '1000',
      ATELIER_WATCHDOG_MS: '200',
      ATELIER_STALE_QUEUED_MS: '2000',
      ...(crashAt ? { ATELIER_CRASH_AT: crashAt } : {}),
    },
    60_000,
    ['--worker-only'],
    /Atelier worker running/,
  ).then((w) => (workers.push(w), w));
}

before(async () => {
  srv = await startMcpTestServer();
  // No in-process worker: only the worker processes run tasks.
  t = await startTestApp('mcpcrash');
  viewer = { userId: t.a.ownerId, credentialId: 'test', principal: 'HUMAN', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) } as Viewer;
  const s = await registerMcpServer(t.app.deps, viewer, { workspaceId: t.a.workspaceId, name: 'tst', title: 'Test server', transport: 'HTTP', url: srv.url });
  // Priced below the workspace's confirmation-free amount: no card, a hold and its settlement.
  await updateMcpServer(t.app.deps, viewer, {
    serverId: s.id,
    baseVersion: s.version,
    toolOverrides: [{ tool: 'once', priceCents: 25 }, { tool: 'record', priceCents: 30 }, { tool: 'longtask', priceCents: 35 }],
  });
});

after(async () => {
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  await t?.close();
  await srv?.close();
});

/** Starts a task, kills its worker at `point`, lets a fresh worker take over; returns the task's calls. */
async function crashAndTakeOver(tool: string, args: Record<string, unknown>, point: CrashPoint) {
  const { prisma } = t.app.deps;
  const w1 = await startWorker(point);
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: mcpCallTitle(tool, args) });
  await waitFor(() => w1.proc.signalCode === 'SIGKILL', `the worker to die at ${point}`, { timeoutMs: 60_000 }).catch((e) => {
    throw new Error(`${(e as Error).message}\n--- worker:\n${w1.output()}`);
  });
  assert.match(w1.output(), new RegExp(`crash point reached: ${point.replace('.', '\\.')}`));
  const [started] = await prisma.toolCall.findMany({ where: { taskId: task.id, name: tool } });
  assert.equal(started!.status, 'STARTED', 'the dead worker left the call started, its answer unrecorded');
  const w2 = await startWorker();
  await waitFor(async () => (await prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status === 'COMPLETED', 'the task completes after the takeover', { timeoutMs: 60_000 }).catch((e) => {
    throw new Error(`${(e as Error).message}\n--- worker 2:\n${w2.output()}`);
  });
  await w2.stop('SIGKILL');
  const [call] = await prisma.toolCall.findMany({ where: { taskId: task.id, name: tool } });
  const done = await prisma.task.findUniqueOrThrow({ where: { id: task.id } });
  const ledger = await prisma.ledgerEntry.findMany({ where: { taskId: task.id }, orderBy: { createdAt: 'asc' } });
  return { taskId: task.id, call: call!, summary: done.summary, ledger };
}

/** holds = charges + releases, one settlement per hold, nothing left held. */
function assertSettled(ledger: { kind: string; amountCents: number; jobId: string | null }[]) {
  const holds = ledger.filter((e) => e.kind === 'HOLD');
  for (const h of holds) {
    const settlements = ledger.filter((e) => e.jobId === h.jobId && (e.kind === 'CHARGE' || e.kind === 'RELEASE'));
    assert.equal(settlements.length, 1, 'each hold is settled exactly once');
    assert.equal(settlements[0]!.amountCents, h.amountCents);
  }
}

test('AT_MOST_ONCE: the worker dies after the server answered; the call is never sent again, the model is handed OUTCOME_UNKNOWN, the hold is charged once', { timeout: 180_000 }, async () => {
  const { call, summary, ledger } = await crashAndTakeOver('tst__once', { value: 'book it' }, 'mcp.call.answered');
  assert.equal(srv.state.runs.once, 1, 'the server ran it once: the takeover did not send it again');
  assert.equal(srv.state.metas.once![0]![IDEMPOTENCY_META_KEY], call.id);
  assert.equal(call.safety, 'AT_MOST_ONCE');
  assert.equal(call.status, 'OUTCOME_UNKNOWN');
  assert.match(summary, /OUTCOME_UNKNOWN/, 'the model was handed the unknown outcome');
  assert.match(summary, /\$0\.25, was charged once/, 'and told what it cost');
  assert.deepEqual(ledger.map((e) => [e.kind, e.amountCents]), [['HOLD', 25], ['CHARGE', 25]]);
  assert.match(ledger[1]!.reason, /outcome unknown/);
  assertSettled(ledger);
});

test('IDEMPOTENT: the worker dies after the server answered; the takeover sends it again with the same key; one charge', { timeout: 180_000 }, async () => {
  const { call, ledger } = await crashAndTakeOver('tst__record', { value: 'twice is fine' }, 'mcp.call.answered');
  assert.equal(call.safety, 'IDEMPOTENT');
  assert.equal(call.status, 'DONE');
  assert.equal(srv.state.runs.record, 2, 'sent again after the takeover');
  assert.deepEqual(srv.state.metas.record!.map((m) => m[IDEMPOTENCY_META_KEY]), [call.id, call.id], 'both times with the call\'s key');
  assert.deepEqual(ledger.map((e) => [e.kind, e.amountCents]), [['HOLD', 30], ['CHARGE', 30]]);
  assertSettled(ledger);
});

test('an MCP task: the worker is killed while it waits on the server\'s task; the takeover follows the SAME task, the tool ran once, its result reaches the model, one charge', { timeout: 180_000 }, async () => {
  const { prisma } = t.app.deps;
  const w1 = await startWorker();
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: mcpCallTitle('tst__longtask', { value: 'the long render', ms: 6000 }) });
  // Worker 1 recorded the server's task and is polling it: kill it there.
  const upstream = await waitFor(async () => {
    const e = await prisma.taskEvent.findFirst({ where: { taskId: task.id, type: 'TOOL_TASK_STARTED' } });
    const id = (e?.payload as { mcpTask?: string } | null)?.mcpTask;
    return id && (srv.state.taskPolls[id] ?? 0) > 0 ? id : null;
  }, 'worker 1 waiting on the server\'s task', { timeoutMs: 60_000 });
  await w1.stop('SIGKILL');
  assert.equal(srv.state.running.longtask, 1, 'the server\'s task still runs');
  const pollsBefore = srv.state.taskPolls[upstream]!;
  const w2 = await startWorker();
  await waitFor(async () => (await prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status === 'COMPLETED', 'the task completes after the takeover', { timeoutMs: 60_000 }).catch((e) => {
    throw new Error(`${(e as Error).message}\n--- worker 2:\n${w2.output()}`);
  });
  await w2.stop('SIGKILL');
  assert.equal(srv.state.runs.longtask, 1, 'the tool ran once: the takeover sent nothing');
  assert.deepEqual(srv.state.tasks, [upstream], 'no second task was created');
  assert.ok(srv.state.taskPolls[upstream]! > pollsBefore, 'the takeover polled the same task');
  const [call] = await prisma.toolCall.findMany({ where: { taskId: task.id, name: 'tst__longtask' } });
  assert.equal(call!.safety, 'AT_MOST_ONCE', 'even an at-most-once call is followed, not given up');
  assert.equal(call!.status, 'DONE');
  assert.ok(call!.generation > 1, 'recorded by the takeover');
  const done = await prisma.task.findUniqueOrThrow({ where: { id: task.id } });
  assert.match(done.summary, /finished the long render/, 'the result reached the model');
  const ledger = await prisma.ledgerEntry.findMany({ where: { taskId: task.id }, orderBy: { createdAt: 'asc' } });
  assert.deepEqual(ledger.map((e) => [e.kind, e.amountCents]), [['HOLD', 35], ['CHARGE', 35]]);
  assertSettled(ledger);
});

/**
 * A worker dies at `point` and the task is cancelled before any worker takes it over: no outcome
 * will ever settle the call's hold, so the task's end does (runtime/mcp/settle-ended.ts) — once the
 * dead worker's lease has expired.
 */
async function crashThenCancel(tool: string, args: Record<string, unknown>, point: CrashPoint) {
  const { prisma } = t.app.deps;
  const w1 = await startWorker(point);
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: mcpCallTitle(tool, args) });
  await waitFor(() => w1.proc.signalCode === 'SIGKILL', `the worker to die at ${point}`, { timeoutMs: 60_000 });
  await signalTask(t.app.deps, viewer, { taskId: task.id, signal: 'CANCEL' });
  const ledger = await waitFor(async () => {
    const l = await prisma.ledgerEntry.findMany({ where: { taskId: task.id }, orderBy: { createdAt: 'asc' } });
    return l.some((e) => e.kind !== 'HOLD') ? l : null;
  }, 'the hold settled after the task ended', { timeoutMs: 30_000 });
  const [call] = await prisma.toolCall.findMany({ where: { taskId: task.id, name: tool } });
  return { taskId: task.id, call: call!, ledger };
}

test('a task cancelled after its worker died mid-call: the price of a call that may have reached the server is charged once', { timeout: 180_000 }, async () => {
  const before = srv.state.runs.once ?? 0;
  const { taskId, call, ledger } = await crashThenCancel('tst__once', { value: 'orphaned' }, 'mcp.call.answered');
  assert.equal(call.status, 'STARTED', 'no worker ever recorded its outcome');
  assert.equal((srv.state.runs.once ?? 0) - before, 1);
  assert.deepEqual(ledger.map((e) => [e.kind, e.amountCents]), [['HOLD', 25], ['CHARGE', 25]]);
  assert.match(ledger[1]!.reason, /may have reached the server/);
  assertSettled(ledger);
  // Settling again (a second process, the sweep) writes nothing more.
  const again = await settleMcpHoldsOfEndedTask(t.app.deps.prisma, taskId);
  assert.deepEqual(again.settled, []);
  assert.equal((await t.app.deps.prisma.ledgerEntry.count({ where: { taskId } })), 2);
});

test('a task cancelled after its worker died between holding the price and sending the call: released, nothing sent', { timeout: 180_000 }, async () => {
  const before = srv.state.runs.once ?? 0;
  const { call, ledger } = await crashThenCancel('tst__once', { value: 'never sent' }, 'mcp.call.held');
  assert.equal(call.status, 'PENDING', 'the call was never marked started');
  assert.equal((srv.state.runs.once ?? 0) - before, 0, 'the server never saw it');
  assert.deepEqual(ledger.map((e) => [e.kind, e.amountCents]), [['HOLD', 25], ['RELEASE', 25]]);
  assert.match(ledger[1]!.reason, /nothing was sent/);
  assertSettled(ledger);
});
