// bench:runtime (a): the runtime's cost per step against a fixed baseline of one commit per step.
//   runtime  = runTurn() in this process (no worker, no pg-boss) over tasks of S steps, a scripted
//              model answering at once and a no-op IDEMPOTENT tool: what the durable loop costs;
//   baseline = per step one BEGIN; INSERT one row; COMMIT on a raw connection (1, or as many as the
//              runtime's concurrency): the least a durable step can cost.
// Rounds alternate which goes first (ABBA…); figures are medians over rounds. Commits and statements
// per step are counted (./sql-counter.ts), so a runtime that makes twice the commits shows twice
// the commits per step against the baseline's 1, and roughly twice the time ratio.
import { performance } from 'node:perf_hooks';
import { ToolMessage } from '@langchain/core/messages';
import pg from 'pg';
import { z } from 'zod';
import { runTurn } from '../../../server/runtime/engine.ts';
import { ScriptedChatModel } from '../../../server/runtime/models/scripted-model.ts';
import { TURN_QUEUE } from '../../../server/store/scheduler.ts';
import { defineTool } from '../../../server/runtime/tools/types.ts';
import { createTask } from '../../../server/services/tasks/create-task.ts';
import type { TestApp } from '../../helpers/app.ts';
import { reached } from '../../helpers/wait.ts';
import { CFG, pgClient, progress, viewerOf } from './config.ts';
import { counted, uncounted, type SqlCounts } from './sql-counter.ts';

/** Timestamps (performance.now) of each bench_noop run, by task. */
const noopRuns = new Map<string, number[]>();
const S = CFG.overheadSteps;

export const noop = defineTool({
  name: 'bench_noop',
  domain: 'core',
  description: 'Does nothing.',
  // The right the agent policy requires for it (a tool that is not built in declares its own).
  scope: 'tasks:write',
  input: z.object({ k: z.number().int() }),
  output: z.object({ k: z.number() }),
  safety: 'IDEMPOTENT',
  async run(input, ctx) {
    (noopRuns.get(ctx.taskId) ?? noopRuns.set(ctx.taskId, []).get(ctx.taskId)!).push(performance.now());
    return { k: input.k };
  },
});

/** Answers instantly: bench_noop (S − 1) times, then complete_task — S steps. */
export const instantModel = new ScriptedChatModel(({ messages }) => {
  const done = messages.filter((m) => m instanceof ToolMessage && m.name === 'bench_noop').length;
  if (done < S - 1) return { content: `step ${done}`, toolCalls: [{ name: 'bench_noop', args: { k: done } }] };
  return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: `${S} steps` } }] };
});

export type OverheadRound = { runtimeMs: number; baselineMs: number; cpuMs: number; counts: SqlCounts; notCompleted: number; runtimeFirst: boolean };
export type OverheadCase = {
  label: string;
  concurrency: number;
  tasksPerRound: number;
  stepsPerRound: number;
  rounds: OverheadRound[];
  turnMs: number[];
  /** Between consecutive bench_noop runs of one task: one whole step in steady state. */
  steadyStepMs: number[];
};

async function prepareTasks(t: TestApp, n: number, prefix: string) {
  const viewer = viewerOf(t.a.ownerId, t.a.workspaceId);
  const out: { taskId: string; turnId: string }[] = [];
  for (let i = 0; i < n; i++) {
    const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: `${prefix}-${i}` });
    const turn = await t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id } });
    out.push({ taskId: task.id, turnId: turn.id });
  }
  return out;
}

/** Runs n tasks' turns with runTurn, `concurrency` at a time. */
async function runtimeBatch(t: TestApp, n: number, concurrency: number, prefix: string, turnMs: number[], steadyStepMs: number[]) {
  const tasks = await prepareTasks(t, n, prefix);
  let notCompleted = 0;
  const cpu0 = process.cpuUsage();
  const { value: wallMs, counts } = await counted(async () => {
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async (_, w) => {
        for (let i = next++; i < tasks.length; i = next++) {
          const s = performance.now();
          const r = await runTurn(t.app.deps.runtime, tasks[i]!.turnId, { workerId: `bench:${process.pid}:${prefix}-${w}` });
          turnMs.push(performance.now() - s);
          if (r.outcome !== 'completed') notCompleted++;
        }
      }),
    );
    return performance.now() - start;
  });
  const cpu = process.cpuUsage(cpu0);
  for (const { taskId } of tasks) {
    const runs = noopRuns.get(taskId) ?? [];
    for (let i = 1; i < runs.length; i++) steadyStepMs.push(runs[i]! - runs[i - 1]!);
  }
  const done = await t.app.deps.prisma.task.count({ where: { id: { in: tasks.map((x) => x.taskId) }, status: 'COMPLETED' } });
  return { wallMs, counts, cpuMs: (cpu.user + cpu.system) / 1000, notCompleted: Math.max(notCompleted, tasks.length - done) };
}

/** `steps` × (BEGIN; INSERT one row; COMMIT) on the given connections. */
async function baselineBatch(clients: pg.Client[], steps: number): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    clients.map(async (c, w) => {
      for (let i = next++; i < steps; i = next++) {
        await c.query('BEGIN');
        await c.query('INSERT INTO bench_commits (writer, i) VALUES ($1, $2)', [w, i]);
        await c.query('COMMIT');
      }
    }),
  );
  return performance.now() - start;
}

async function overheadCase(t: TestApp, label: string, concurrency: number): Promise<OverheadCase> {
  const clients: pg.Client[] = [];
  for (let i = 0; i < concurrency; i++) {
    const c = await pgClient(t.dbUrl);
    uncounted.add(c);
    clients.push(c);
  }
  await clients[0]!.query('CREATE TABLE IF NOT EXISTS bench_commits (id bigserial PRIMARY KEY, writer int NOT NULL, i int NOT NULL, at timestamptz NOT NULL DEFAULT now())');
  const n = CFG.overheadTasks;
  const turnMs: number[] = [];
  const steadyStepMs: number[] = [];
  // Warm-up of both (not reported): JIT, Prisma query plans, the connection pools, PostgreSQL caches.
  await runtimeBatch(t, CFG.warmupTasks * concurrency, concurrency, `warm-${concurrency}`, [], []);
  await baselineBatch(clients, CFG.warmupTasks * concurrency * S);
  const rounds: OverheadRound[] = [];
  for (let r = 0; r < CFG.overheadRounds; r++) {
    const runtimeFirst = r % 2 === 0;
    let baselineMs = NaN;
    if (!runtimeFirst) baselineMs = await baselineBatch(clients, n * S);
    const run = await runtimeBatch(t, n, concurrency, `${label}-${r}`, turnMs, steadyStepMs);
    if (runtimeFirst) baselineMs = await baselineBatch(clients, n * S);
    rounds.push({ runtimeMs: run.wallMs, baselineMs, cpuMs: run.cpuMs, counts: run.counts, notCompleted: run.notCompleted, runtimeFirst });
  }
  await Promise.all(clients.map((c) => c.end()));
  return { label, concurrency, tasksPerRound: n, stepsPerRound: n * S, rounds, turnMs, steadyStepMs };
}

export async function benchOverhead(t: TestApp): Promise<OverheadCase[]> {
  const seq = await overheadCase(t, 'sequential', 1);
  progress('overhead sequential done');
  const conc = await overheadCase(t, `${CFG.concurrency} concurrent`, CFG.concurrency);
  progress('overhead concurrent done');
  return [seq, conc];
}

export type E2eResult = {
  tasks: number;
  steps: number;
  concurrency: number;
  wallMs: number;
  createToStartMs: number[];
  /** Wake-up latency alone: one task at a time, created while the worker has free slots. */
  wakeMs: number[];
  createToCompleteMs: number[];
  turnMs: number[];
  notCompleted: number;
};

/** The same tasks through pg-boss and a real in-process worker (wake-up latency included). */
export async function runE2e(t: TestApp, n: number, concurrency: number): Promise<E2eResult> {
  const { prisma, scheduler } = t.app.deps;
  // The wake-ups of the turns already run by hand would only be no-ops now: drop them, then start.
  await scheduler.boss.deleteQueuedJobs(TURN_QUEUE);
  const worker = await t.app.startWorker({ concurrency });
  await reached(
    async () =>
      (
        await prisma.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`,
          TURN_QUEUE,
        )
      )[0]!.n === 0,
    { timeoutMs: 20_000, intervalMs: 100 },
  );
  const viewer = viewerOf(t.a.ownerId, t.a.workspaceId);
  const start = Date.now();
  const created: { id: string; at: number }[] = [];
  for (let i = 0; i < n; i++) {
    const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: `e2e-${i}` });
    created.push({ id: task.id, at: task.createdAt.getTime() });
  }
  const ids = created.map((c) => c.id);
  // Tasks still open at the bound are reported by the figures below (their turns never start or end).
  await reached(async () => (await prisma.task.count({ where: { id: { in: ids }, status: { notIn: ['COMPLETED', 'FAILED', 'CANCELLED'] } } })) === 0, { timeoutMs: 60_000 });
  const events = await prisma.taskEvent.findMany({
    where: { taskId: { in: ids }, type: { in: ['TURN_STARTED', 'TASK_STATUS_CHANGED'] } },
    select: { taskId: true, type: true, payload: true, occurredAt: true },
    orderBy: { seq: 'asc' },
  });
  const createToStartMs: number[] = [];
  const createToCompleteMs: number[] = [];
  const turnMs: number[] = [];
  let lastEnd = start;
  for (const c of created) {
    const started = events.find((e) => e.taskId === c.id && e.type === 'TURN_STARTED');
    const ended = events.find((e) => e.taskId === c.id && e.type === 'TASK_STATUS_CHANGED' && (e.payload as { to?: string } | null)?.to === 'COMPLETED');
    if (started) createToStartMs.push(started.occurredAt.getTime() - c.at);
    if (ended) {
      createToCompleteMs.push(ended.occurredAt.getTime() - c.at);
      lastEnd = Math.max(lastEnd, ended.occurredAt.getTime());
      if (started) turnMs.push(ended.occurredAt.getTime() - started.occurredAt.getTime());
    }
  }
  // The batch above queues n tasks for `concurrency` slots, so its create→TURN_STARTED includes the
  // wait for a free slot. The wake-up itself: one task at a time, each created while the worker idles.
  const wakeMs: number[] = [];
  for (let i = 0; i < Math.min(n, 12); i++) {
    const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: `wake-${i}` });
    await reached(async () => (await prisma.task.count({ where: { id: task.id, status: 'COMPLETED' } })) === 1, { timeoutMs: 20_000, intervalMs: 5 });
    const started = await prisma.taskEvent.findFirst({ where: { taskId: task.id, type: 'TURN_STARTED' }, orderBy: { seq: 'asc' }, select: { occurredAt: true } });
    if (started) wakeMs.push(started.occurredAt.getTime() - task.createdAt.getTime());
  }
  // Stop consuming wake-ups for good (WorkerHandle.stop() leaves pg-boss fetching jobs and
  // dropping them), so that this process's worker takes none of (b)'s turns.
  await scheduler.boss.offWork(TURN_QUEUE, { wait: true });
  await worker.stop();
  return { tasks: n, steps: n * S, concurrency, wallMs: lastEnd - start, createToStartMs, wakeMs, createToCompleteMs, turnMs, notCompleted: n - createToCompleteMs.length };
}
