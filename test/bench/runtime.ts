// Durable-runtime benchmark: (a) the runtime's overhead per step beside the bare cost of as many
// PostgreSQL commits, measured in the same run on the same database; (b) recovery when worker
// processes are SIGKILLed at random moments (exactly-once effects, one terminal state per task,
// time from a kill to the takeover of each affected task beside the lease).
//
//   npm run bench:runtime                    full run (~3–4 min)
//   npm run bench:runtime -- --quick         smoke run (< 60 s)
//
// Prints a table, then one line `BENCH_RESULT {json}`. Never asserts timings; exits 0 when the run
// completes (anomalies are reported, not thrown).
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { ToolMessage } from '@langchain/core/messages';
import pg from 'pg';
import { z } from 'zod';
import type { Viewer } from '../../server/auth/viewer.ts';
import { runTurn } from '../../server/runtime/engine.ts';
import { scriptedProvider } from '../../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../../server/runtime/models/scripted-model.ts';
import { TURN_QUEUE } from '../../server/runtime/scheduler.ts';
import { defineTool } from '../../server/runtime/tools/types.ts';
import { createTask } from '../../server/services/tasks/create-task.ts';
import { EFFECTS_TABLE_SQL } from '../fixtures/runtime-plugin.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { sleep, percentile, mean, round, fmt, table } from './stats.ts';

const QUICK = process.argv.includes('--quick');

const CFG = QUICK
  ? {
      mode: 'quick',
      overheadTasks: 5,
      overheadSteps: 5,
      concurrency: 4,
      warmupTasks: 2,
      e2eTasks: 4,
      recoveryTasks: 30,
      inFlight: 20,
      /** Kills stop at this count (or when every task has ended). */
      maxKills: 2,
      /** Start (b)'s worker processes while (a)'s end-to-end case runs (saves ~10 s). */
      overlapE2e: true,
      feedDeadlineS: 40,
      killGapMs: [1500, 3000] as const,
      /** Worker processes started before the first task (more than one so a kill never leaves none). */
      initialWorkers: 3,
      /** Processes (ready or starting) kept while kills continue. */
      poolTarget: 2,
      settleTimeoutMs: 30_000,
    }
  : {
      mode: 'full',
      overheadTasks: 20,
      overheadSteps: 10,
      concurrency: 4,
      warmupTasks: 3,
      e2eTasks: 12,
      recoveryTasks: 200,
      inFlight: 20,
      /** Kills are bounded by worker start-up (each replacement costs seconds of CPU on a small machine). */
      maxKills: 10,
      overlapE2e: false,
      /** No new task after this many seconds of the whole run (a guard for a heavily shared machine). */
      feedDeadlineS: 190,
      killGapMs: [1500, 3000] as const,
      initialWorkers: 2,
      poolTarget: 2,
      settleTimeoutMs: 90_000,
    };

/** Environment of the worker processes of (b) (ATELIER_LOG_LEVEL=info to count supersessions). */
const WORKER_ENV = {
  ATELIER_RUNTIME_PLUGIN: 'test/fixtures/runtime-plugin.ts',
  ATELIER_LEASE_MS: '1500',
  ATELIER_WATCHDOG_MS: '250',
  ATELIER_STALE_QUEUED_MS: '3000',
  ATELIER_WORKER_CONCURRENCY: '20',
  PLUGIN_STEPS: '4',
  PLUGIN_TOOL_MS: '100',
  ATELIER_LOG_LEVEL: 'info',
};
const PLUGIN_STEPS = Number(WORKER_ENV.PLUGIN_STEPS);
const LEASE_MS = Number(WORKER_ENV.ATELIER_LEASE_MS);
const WORKER_READY = /Atelier worker running \(([^)]+)\)/;
const WORKER_START_TIMEOUT_MS = 60_000;
const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELLED'];
const ROOT = new URL('../../', import.meta.url).pathname;

// ---------------------------------------------------------------------------------------------
// Helpers

const T0 = performance.now();
const progress = (msg: string) => void process.stderr.write(`  [${((performance.now() - T0) / 1000).toFixed(1)} s] ${msg}\n`);
const rand = (lo: number, hi: number) => lo + Math.random() * (hi - lo);



async function pgClient(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

function viewerOf(userId: string, workspaceId: string): Viewer {
  return { userId, credentialId: 'bench', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[workspaceId, 'OWNER']]) };
}

// ---------------------------------------------------------------------------------------------
// SQL counter: every statement this process sends through `pg` (Prisma's driver adapter uses it),
// except pg-boss's own pool (application_name atelier-scheduler) and the baseline's clients.
// Transactions are delimited by the BEGIN / COMMIT statements Prisma sends.

type SqlCounts = {
  statements: number;
  /** BEGIN…COMMIT transactions committed. */
  txCommits: number;
  /** …of which wrote something (INSERT/UPDATE/DELETE, or a WITH … UPDATE/INSERT). */
  txWriteCommits: number;
  txRollbacks: number;
  /** Writes outside a transaction (each its own commit), e.g. lease renewals, snapshots. */
  autocommitWrites: number;
  /** Reads outside a transaction (including SELECT pg_notify). */
  autocommitReads: number;
};
const zeroCounts = (): SqlCounts => ({ statements: 0, txCommits: 0, txWriteCommits: 0, txRollbacks: 0, autocommitWrites: 0, autocommitReads: 0 });
const sqlCounter = { on: false, c: zeroCounts() };
const openTx = new WeakMap<object, { wrote: boolean }>();
const uncounted = new WeakSet<object>();

function isWrite(text: string): boolean {
  const s = text.replace(/FOR\s+(NO\s+KEY\s+)?UPDATE|FOR\s+SHARE/gi, '');
  return /^\s*(INSERT|UPDATE|DELETE|MERGE)\b/i.test(s) || (/^\s*WITH\b/i.test(s) && /\b(INSERT|UPDATE|DELETE)\b/i.test(s));
}

function countStatement(client: object, q: unknown) {
  const params = (client as { connectionParameters?: { application_name?: string } }).connectionParameters;
  if (uncounted.has(client) || params?.application_name === 'atelier-scheduler') return;
  const text = typeof q === 'string' ? q : typeof (q as { text?: unknown })?.text === 'string' ? (q as { text: string }).text : '';
  const c = sqlCounter.c;
  c.statements++;
  const head = text.trimStart().slice(0, 24).toUpperCase();
  const tx = openTx.get(client);
  if (head.startsWith('BEGIN') || head.startsWith('START TRANSACTION')) openTx.set(client, { wrote: false });
  else if (head.startsWith('COMMIT')) {
    c.txCommits++;
    if (tx?.wrote) c.txWriteCommits++;
    openTx.delete(client);
  } else if (head.startsWith('ROLLBACK') && !head.startsWith('ROLLBACK TO')) {
    c.txRollbacks++;
    openTx.delete(client);
  } else if (tx) {
    if (isWrite(text)) tx.wrote = true;
  } else if (isWrite(text)) c.autocommitWrites++;
  else c.autocommitReads++;
}

function installSqlCounter() {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: object, ...args: unknown[]) {
    if (sqlCounter.on) countStatement(this, args[0]);
    return original.apply(this, args);
  };
}

async function counted<T>(f: () => Promise<T>): Promise<{ value: T; counts: SqlCounts }> {
  sqlCounter.c = zeroCounts();
  sqlCounter.on = true;
  try {
    const value = await f();
    return { value, counts: sqlCounter.c };
  } finally {
    sqlCounter.on = false;
  }
}

// ---------------------------------------------------------------------------------------------
// (a) Runtime overhead per step

/** Timestamps (performance.now) of each bench_noop run, by task. */
const noopRuns = new Map<string, number[]>();
let stepsPerTask = CFG.overheadSteps;

const noop = defineTool({
  name: 'bench_noop',
  domain: 'core',
  description: 'Does nothing.',
  input: z.object({ k: z.number().int() }),
  output: z.object({ k: z.number() }),
  safety: 'IDEMPOTENT',
  async run(input, ctx) {
    const list = noopRuns.get(ctx.taskId);
    if (list) list.push(performance.now());
    else noopRuns.set(ctx.taskId, [performance.now()]);
    return { k: input.k };
  },
});

/** Answers instantly: bench_noop (stepsPerTask − 1) times, then complete_task — stepsPerTask steps. */
const instantModel = new ScriptedChatModel(({ messages }) => {
  const done = messages.filter((m) => m instanceof ToolMessage && m.name === 'bench_noop').length;
  if (done < stepsPerTask - 1) return { content: `step ${done}`, toolCalls: [{ name: 'bench_noop', args: { k: done } }] };
  return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: `${stepsPerTask} steps` } }] };
});

type OverheadRun = {
  tasks: number;
  steps: number;
  concurrency: number;
  wallMs: number;
  /** CPU time of this (the only Node) process during the run. */
  cpuMs: number;
  turnMs: number[];
  /** Between consecutive bench_noop runs of one task: one whole step in steady state. */
  steadyStepMs: number[];
  counts: SqlCounts;
  notCompleted: number;
};

async function prepareTasks(t: TestApp, n: number, prefix: string) {
  const { prisma } = t.app.deps;
  const viewer = viewerOf(t.a.ownerId, t.a.workspaceId);
  const out: { taskId: string; turnId: string }[] = [];
  for (let i = 0; i < n; i++) {
    const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: `${prefix}-${i}` });
    const turn = await prisma.turn.findFirstOrThrow({ where: { taskId: task.id } });
    out.push({ taskId: task.id, turnId: turn.id });
  }
  return out;
}

/** Runs n tasks' turns with runTurn in this process, `concurrency` at a time (no worker, no pg-boss). */
async function runOverhead(t: TestApp, n: number, concurrency: number, prefix: string): Promise<OverheadRun> {
  const { prisma, runtime } = t.app.deps;
  const tasks = await prepareTasks(t, n, prefix);
  const turnMs: number[] = [];
  let notCompleted = 0;
  const cpu0 = process.cpuUsage();
  const { value: wallMs, counts } = await counted(async () => {
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async (_, w) => {
        for (;;) {
          const i = next++;
          if (i >= tasks.length) return;
          const s = performance.now();
          const r = await runTurn(runtime, tasks[i]!.turnId, { workerId: `bench:${process.pid}:${prefix}-${w}` });
          turnMs.push(performance.now() - s);
          if (r.outcome !== 'completed') notCompleted++;
        }
      }),
    );
    return performance.now() - start;
  });
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const steadyStepMs: number[] = [];
  for (const { taskId } of tasks) {
    const runs = noopRuns.get(taskId) ?? [];
    for (let i = 1; i < runs.length; i++) steadyStepMs.push(runs[i]! - runs[i - 1]!);
  }
  const done = await prisma.task.count({ where: { id: { in: tasks.map((x) => x.taskId) }, status: 'COMPLETED' } });
  notCompleted = Math.max(notCompleted, tasks.length - done);
  return { tasks: n, steps: n * stepsPerTask, concurrency, wallMs, cpuMs, turnMs, steadyStepMs, counts, notCompleted };
}

/** `commits` transactions BEGIN; INSERT one row; COMMIT on `concurrency` raw pg connections. */
async function baselineCommits(dbUrl: string, commits: number, concurrency: number): Promise<number> {
  const clients: pg.Client[] = [];
  for (let i = 0; i < concurrency; i++) {
    const c = await pgClient(dbUrl);
    uncounted.add(c);
    clients.push(c);
  }
  await clients[0]!.query(
    'CREATE TABLE IF NOT EXISTS bench_commits (id bigserial PRIMARY KEY, writer int NOT NULL, i int NOT NULL, at timestamptz NOT NULL DEFAULT now())',
  );
  let next = 0;
  const start = performance.now();
  await Promise.all(
    clients.map(async (c, w) => {
      for (;;) {
        const i = next++;
        if (i >= commits) return;
        await c.query('BEGIN');
        await c.query('INSERT INTO bench_commits (writer, i) VALUES ($1, $2)', [w, i]);
        await c.query('COMMIT');
      }
    }),
  );
  const ms = performance.now() - start;
  await Promise.all(clients.map((c) => c.end()));
  return ms;
}

type OverheadRow = {
  label: string;
  run: OverheadRun;
  /** Commits the baseline replayed: txCommits + autocommitWrites of the run. */
  baselineCommits: number;
  baselineMs: number;
  msPerStep: number;
  baselineMsPerStep: number;
  ratio: number;
};

function overheadRow(label: string, run: OverheadRun, baselineMs: number): OverheadRow {
  const commits = run.counts.txCommits + run.counts.autocommitWrites;
  return {
    label,
    run,
    baselineCommits: commits,
    baselineMs,
    msPerStep: run.wallMs / run.steps,
    baselineMsPerStep: baselineMs / run.steps,
    ratio: run.wallMs / baselineMs,
  };
}

type E2eResult = {
  tasks: number;
  steps: number;
  concurrency: number;
  wallMs: number;
  createToStartMs: number[];
  createToCompleteMs: number[];
  turnMs: number[];
  notCompleted: number;
};

/** The same tasks through pg-boss and a real in-process worker (wake-up latency included). */
async function runE2e(t: TestApp, n: number, concurrency: number): Promise<E2eResult> {
  const { prisma, scheduler } = t.app.deps;
  // The wake-ups of the turns already run by hand would only be no-ops now: drop them, then start.
  await scheduler.boss.deleteQueuedJobs(TURN_QUEUE);
  const worker = await t.app.startWorker({ concurrency });
  const drainUntil = Date.now() + 20_000;
  while (Date.now() < drainUntil) {
    const r = await prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`,
      TURN_QUEUE,
    );
    if (r[0]!.n === 0) break;
    await sleep(100);
  }
  const viewer = viewerOf(t.a.ownerId, t.a.workspaceId);
  const start = Date.now();
  const created: { id: string; at: number }[] = [];
  for (let i = 0; i < n; i++) {
    const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: `e2e-${i}` });
    created.push({ id: task.id, at: task.createdAt.getTime() });
  }
  const ids = created.map((c) => c.id);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const left = await prisma.task.count({ where: { id: { in: ids }, status: { notIn: ['COMPLETED', 'FAILED', 'CANCELLED'] } } });
    if (left === 0) break;
    await sleep(20);
  }
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
  const notCompleted = n - createToCompleteMs.length;
  // Stop consuming wake-ups for good (WorkerHandle.stop() leaves pg-boss fetching jobs and
  // dropping them), so that this process's worker takes none of (b)'s turns.
  await scheduler.boss.offWork(TURN_QUEUE, { wait: true });
  await worker.stop();
  return { tasks: n, steps: n * stepsPerTask, concurrency, wallMs: lastEnd - start, createToStartMs, createToCompleteMs, turnMs, notCompleted };
}

async function benchOverhead(t: TestApp) {
  const n = CFG.overheadTasks;
  stepsPerTask = CFG.overheadSteps;
  // Warm-up (not reported): JIT, Prisma query plans, the connection pool, PostgreSQL caches.
  await runOverhead(t, CFG.warmupTasks, 1, 'warm');
  await runOverhead(t, CFG.warmupTasks * 2, CFG.concurrency, 'warm-c');
  await baselineCommits(t.dbUrl, 100, CFG.concurrency);

  const seq = await runOverhead(t, n, 1, 'seq');
  const seqBase = await baselineCommits(t.dbUrl, seq.counts.txCommits + seq.counts.autocommitWrites, 1);
  progress(`overhead sequential done`);
  const conc = await runOverhead(t, n, CFG.concurrency, 'conc');
  const concBase = await baselineCommits(t.dbUrl, conc.counts.txCommits + conc.counts.autocommitWrites, CFG.concurrency);
  progress(`overhead concurrent done`);
  return [overheadRow('sequential', seq, seqBase), overheadRow(`${CFG.concurrency} concurrent`, conc, concBase)];
}

// ---------------------------------------------------------------------------------------------
// (b) Recovery from SIGKILLed worker processes

type WorkerProc = {
  n: number;
  child: ChildProcess;
  pid: number;
  spawnedAt: number;
  readyAt?: number;
  workerId?: string;
  exited: boolean;
  exitedAt?: number;
  killedAt?: number;
  output: string;
  ready: Promise<boolean>;
  exit: Promise<void>;
};

const children = new Set<ChildProcess>();

function killAllChildren() {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) {
      try {
        c.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}
process.on('exit', killAllChildren);
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    killAllChildren();
    process.exit(130);
  });
}

let workerSeq = 0;
function spawnWorker(dbUrl: string): WorkerProc {
  // The same command as npm run worker / test/helpers/process.ts, spawned here so that the pid is
  // known at once and a process that never becomes ready is still killed at the end.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--worker-only'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', DATABASE_URL: dbUrl, ...WORKER_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const w: WorkerProc = {
    n: ++workerSeq,
    child,
    pid: child.pid ?? -1,
    spawnedAt: Date.now(),
    exited: false,
    output: '',
    ready: Promise.resolve(false),
    exit: Promise.resolve(),
  };
  w.exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      w.exited = true;
      w.exitedAt = Date.now();
      resolve();
    }),
  );
  w.ready = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), WORKER_START_TIMEOUT_MS);
    child.stdout!.on('data', (d) => {
      w.output += d;
      const m = WORKER_READY.exec(w.output);
      if (m && w.readyAt === undefined) {
        w.readyAt = Date.now();
        w.workerId = m[1];
        clearTimeout(timer);
        resolve(true);
      }
    });
    void w.exit.then(() => {
      clearTimeout(timer);
      resolve(w.readyAt !== undefined);
    });
  });
  child.stderr!.on('data', (d) => (w.output += d));
  return w;
}

type Affected = { taskId: string; turnNumber: number; generation: number; leaseExpiresAt: number };
type KillRecord = {
  n: number;
  pid: number;
  workerN: number;
  killAt: number;
  workerAgeMs: number;
  otherReadyWorkers: number;
  affected: Affected[];
  runningTurnsTotal: number;
};

type LogSummary = { errors: Map<string, number>; warns: Map<string, number>; superseded: number; watchdogReenqueues: number; samples: string[] };

function summarizeLogs(workers: WorkerProc[]): LogSummary {
  const s: LogSummary = { errors: new Map(), warns: new Map(), superseded: 0, watchdogReenqueues: 0, samples: [] };
  for (const w of workers) {
    for (const line of w.output.split('\n')) {
      if (!line.startsWith('{')) {
        if (/error|exception/i.test(line) && s.samples.length < 5) s.samples.push(`worker ${w.n}: ${line.slice(0, 300)}`);
        continue;
      }
      let rec: { level?: string; msg?: string; mismatched?: unknown[] };
      try {
        rec = JSON.parse(line) as typeof rec;
      } catch {
        continue;
      }
      const msg = rec.msg ?? '?';
      if (rec.level === 'error') {
        s.errors.set(msg, (s.errors.get(msg) ?? 0) + 1);
        if (s.samples.length < 5) s.samples.push(`worker ${w.n}: ${line.slice(0, 400)}`);
      } else if (rec.level === 'warn') s.warns.set(msg, (s.warns.get(msg) ?? 0) + 1);
      if (msg.startsWith('turn superseded')) s.superseded++;
      if (msg.startsWith('watchdog re-enqueued')) s.watchdogReenqueues++;
    }
  }
  return s;
}

type Pool = { workers: WorkerProc[]; startedAt: number; add(): WorkerProc };

/** Starts (b)'s first worker processes on their own database (they take a few seconds to be ready). */
async function startPool(t: TestApp): Promise<Pool> {
  await t.app.deps.prisma.$executeRawUnsafe(EFFECTS_TABLE_SQL);
  const pool: Pool = {
    workers: [],
    startedAt: Date.now(),
    add: () => {
      const w = spawnWorker(t.dbUrl);
      pool.workers.push(w);
      return w;
    },
  };
  for (let i = 0; i < CFG.initialWorkers; i++) pool.add();
  return pool;
}

async function benchRecovery(t: TestApp, pool: Pool) {
  const { prisma } = t.app.deps;
  const workspaceId = t.a.workspaceId;
  const viewer = viewerOf(t.a.ownerId, workspaceId);
  const N = CFG.recoveryTasks;

  const workers = pool.workers;
  const kills: KillRecord[] = [];
  const taskIds: string[] = [];
  let allEnded = false;
  let feedDone = false;
  let feedStoppedEarly = false;

  const live = () => workers.filter((w) => !w.exited);
  const ready = () => live().filter((w) => w.readyAt !== undefined);
  const addWorker = pool.add;

  await Promise.race([Promise.all(workers.map((w) => w.ready)), sleep(WORKER_START_TIMEOUT_MS)]);
  if (ready().length === 0) throw new Error(`no worker process became ready:\n${workers.map((w) => w.output).join('\n---\n').slice(0, 4000)}`);
  progress(`${ready().length} worker processes ready`);

  const notEnded = async () =>
    (
      await prisma.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM tasks WHERE workspace_id = $1::uuid AND status NOT IN ('COMPLETED', 'FAILED', 'CANCELLED')`,
        workspaceId,
      )
    )[0]!.n;

  const loadStart = Date.now();
  // Feeder: keeps CFG.inFlight tasks not yet ended, until N have been created.
  const feeder = (async () => {
    while (taskIds.length < N) {
      if (performance.now() - T0 > CFG.feedDeadlineS * 1000) {
        feedStoppedEarly = true;
        break;
      }
      const deficit = Math.min(CFG.inFlight - (await notEnded()), N - taskIds.length);
      for (let i = 0; i < deficit; i++) {
        const task = await createTask(t.app.deps, viewer, { workspaceId, title: `recovery-${taskIds.length}` });
        taskIds.push(task.id);
      }
      await sleep(50);
    }
    feedDone = true;
  })();

  const stopKilling = () => allEnded || kills.length >= CFG.maxKills || (feedDone && !QUICK);
  // Killer: at least 1.5–3 s after the previous kill, SIGKILL the ready worker process holding the
  // most running turns — only when another worker is ready, so one stays alive — then start a
  // replacement (while more kills are to come). The next kill waits for the replacement to be ready.
  const killer = (async () => {
    let lastKill = Date.now();
    while (!stopKilling()) {
      const gap = rand(CFG.killGapMs[0], CFG.killGapMs[1]);
      while (!stopKilling() && (Date.now() - lastKill < gap || ready().length < 2)) await sleep(20);
      if (stopKilling()) break;
      // "The current worker": the ready process holding the most RUNNING turns (the oldest on a tie).
      const owners = await prisma.$queryRawUnsafe<{ owner: string | null; n: number }[]>(
        `SELECT lease_owner AS owner, count(*)::int AS n FROM turns WHERE status = 'RUNNING' GROUP BY lease_owner`,
      );
      const held = (w: WorkerProc) => owners.filter((o) => o.owner?.includes(`:${w.pid}:`)).reduce((a, o) => a + o.n, 0);
      const candidates = ready();
      if (candidates.length < 2) continue;
      const victim = candidates.reduce((best, w) => (held(w) > held(best) ? w : best), candidates[0]!);
      const otherReady = candidates.length - 1;
      const killAt = Date.now();
      victim.killedAt = killAt;
      victim.child.kill('SIGKILL');
      lastKill = killAt;
      if (!stopKilling() && live().length - 1 < CFG.poolTarget && kills.length + 1 < CFG.maxKills) addWorker();
      await victim.exit;
      // The dead process can no longer write: its RUNNING turns are exactly what it held at the kill.
      const rows = await prisma.$queryRawUnsafe<
        { task_id: string; number: number; generation: number; lease_expires_at: Date | null; owner: string | null }[]
      >(`SELECT task_id, number, generation, lease_expires_at, lease_owner AS owner FROM turns WHERE status = 'RUNNING'`);
      const mine = rows.filter((r) => r.owner?.includes(`:${victim.pid}:`));
      kills.push({
        n: kills.length + 1,
        pid: victim.pid,
        workerN: victim.n,
        killAt,
        workerAgeMs: killAt - (victim.readyAt ?? victim.spawnedAt),
        otherReadyWorkers: otherReady,
        affected: mine.map((r) => ({
          taskId: r.task_id,
          turnNumber: r.number,
          generation: r.generation,
          leaseExpiresAt: r.lease_expires_at?.getTime() ?? NaN,
        })),
        runningTurnsTotal: rows.length,
      });
      progress(`kill ${kills.length}: worker ${victim.n} (pid ${victim.pid}), ${mine.length} running turns`);
    }
  })();

  await feeder;
  const settleDeadline = Date.now() + CFG.settleTimeoutMs;
  while (Date.now() < settleDeadline) {
    if ((await notEnded()) === 0) break;
    // Never leave the run without a worker (a failed start, or the pool shrank at the end).
    if (live().length === 0) addWorker();
    await sleep(100);
  }
  const loadMs = Date.now() - loadStart;
  allEnded = true; // stops the killer (whether or not every task ended: the checks below say)
  await killer;
  for (const w of live()) w.child.kill('SIGKILL');
  await Promise.all(workers.map((w) => Promise.race([w.exit, sleep(5000)])));
  progress(`recovery load done`);

  // --- Checks, from the database alone.
  type TaskRow = { id: string; status: string; terminal: number; takeovers: number; max_gen: number; turns: number; events: number; max_seq: number };
  const tasks = await prisma.$queryRawUnsafe<TaskRow[]>(
    `SELECT t.id, t.status::text AS status,
            (SELECT count(*)::int FROM task_events e LEFT JOIN event_payloads p ON p.hash = e.payload_hash
              WHERE e.task_id = t.id AND e.type = 'TASK_STATUS_CHANGED'
                AND COALESCE(e.payload, p.body)->>'to' IN ('COMPLETED', 'FAILED', 'CANCELLED')) AS terminal,
            (SELECT count(*)::int FROM task_events e
              WHERE e.task_id = t.id AND e.type = 'TURN_STARTED' AND (e.payload->>'takeover')::boolean) AS takeovers,
            (SELECT COALESCE(max(generation), 0)::int FROM turns u WHERE u.task_id = t.id) AS max_gen,
            (SELECT count(*)::int FROM turns u WHERE u.task_id = t.id) AS turns,
            (SELECT count(*)::int FROM task_events e WHERE e.task_id = t.id) AS events,
            (SELECT COALESCE(max(seq), 0)::int FROM task_events e WHERE e.task_id = t.id) AS max_seq
       FROM tasks t WHERE t.workspace_id = $1::uuid`,
    workspaceId,
  );
  const effects = await prisma.$queryRawUnsafe<{ task_id: string; k: number; n: number; runs: number }[]>(
    'SELECT task_id::text AS task_id, k, count(*)::int AS n, sum(runs)::int AS runs FROM test_effects GROUP BY task_id, k',
  );
  const effectsByTask = new Map<string, { k: number; n: number; runs: number }[]>();
  for (const e of effects) {
    const l = effectsByTask.get(e.task_id) ?? [];
    l.push(e);
    effectsByTask.set(e.task_id, l);
  }

  const anomalies: string[] = [];
  const statuses: Record<string, number> = {};
  let notTerminal = 0;
  let terminalEventAnomalies = 0;
  let duplicateEffects = 0;
  let missingEffects = 0;
  let seqGaps = 0;
  let replayedEffects = 0;
  let takeovers = 0;
  for (const k of tasks) {
    statuses[k.status] = (statuses[k.status] ?? 0) + 1;
    takeovers += k.takeovers;
    if (!TERMINAL.includes(k.status)) {
      notTerminal++;
      anomalies.push(`task ${k.id}: still ${k.status} (turns ${k.turns}, generation ${k.max_gen})`);
    }
    if (k.terminal !== 1) {
      terminalEventAnomalies++;
      anomalies.push(`task ${k.id}: ${k.terminal} terminal TASK_STATUS_CHANGED events (status ${k.status})`);
    }
    if (k.events !== k.max_seq) {
      seqGaps++;
      anomalies.push(`task ${k.id}: ${k.events} events but last seq ${k.max_seq}`);
    }
    const effs = effectsByTask.get(k.id) ?? [];
    for (const e of effs) {
      if (e.n > 1) {
        duplicateEffects++;
        anomalies.push(`task ${k.id}: effect k=${e.k} exists ${e.n} times`);
      }
      if (e.runs > e.n) replayedEffects++;
    }
    if (k.status === 'COMPLETED') {
      const ks = new Set(effs.map((e) => e.k));
      for (let i = 0; i < PLUGIN_STEPS; i++) {
        if (!ks.has(i)) {
          missingEffects++;
          anomalies.push(`task ${k.id}: COMPLETED without effect k=${i}`);
        }
      }
    }
  }
  const unexpectedStatus = tasks.filter((k) => TERMINAL.includes(k.status) && k.status !== 'COMPLETED').length;
  if (tasks.length !== taskIds.length) anomalies.push(`${tasks.length} tasks in the workspace, ${taskIds.length} created`);

  // Recovery time of each affected task: kill → its first TURN_STARTED with takeover = true at a
  // later generation of the same turn (and, beside it, kill → its first event of any kind after the kill).
  const toTakeover: number[] = [];
  const toAnyEvent: number[] = [];
  const leaseLeft: number[] = [];
  const afterExpiry: number[] = [];
  let affectedTotal = 0;
  let affectedNoTakeover = 0;
  const perKill: { kill: KillRecord; takeoverMs: number[] }[] = [];
  for (const kill of kills) {
    const ms: number[] = [];
    for (const a of kill.affected) {
      affectedTotal++;
      const tk = await prisma.$queryRawUnsafe<{ at: Date }[]>(
        `SELECT occurred_at AS at FROM task_events
          WHERE task_id = $1::uuid AND type = 'TURN_STARTED' AND (payload->>'takeover')::boolean
            AND (payload->>'turn')::int = $2 AND (payload->>'generation')::int > $3
          ORDER BY seq LIMIT 1`,
        a.taskId,
        a.turnNumber,
        a.generation,
      );
      const any = await prisma.$queryRawUnsafe<{ at: Date }[]>(
        `SELECT occurred_at AS at FROM task_events WHERE task_id = $1::uuid AND occurred_at > $2 ORDER BY seq LIMIT 1`,
        a.taskId,
        new Date(kill.killAt),
      );
      if (Number.isFinite(a.leaseExpiresAt)) leaseLeft.push(a.leaseExpiresAt - kill.killAt);
      if (tk[0]) {
        const d = tk[0].at.getTime() - kill.killAt;
        toTakeover.push(d);
        ms.push(d);
        if (Number.isFinite(a.leaseExpiresAt)) afterExpiry.push(tk[0].at.getTime() - a.leaseExpiresAt);
      } else {
        affectedNoTakeover++;
        anomalies.push(`kill ${kill.n}: task ${a.taskId} (turn ${a.turnNumber}, generation ${a.generation}) never taken over`);
      }
      if (any[0]) toAnyEvent.push(any[0].at.getTime() - kill.killAt);
    }
    perKill.push({ kill, takeoverMs: ms });
  }
  // Per-task latency (create → terminal event), and the timeline of the slowest tasks.
  const evs = await prisma.$queryRawUnsafe<{ task_id: string; seq: number; type: string; at: Date; payload: unknown; created: Date }[]>(
    `SELECT e.task_id::text AS task_id, e.seq, e.type, e.occurred_at AS at, e.payload, t.created_at AS created
       FROM task_events e JOIN tasks t ON t.id = e.task_id WHERE t.workspace_id = $1::uuid ORDER BY e.task_id, e.seq`,
    workspaceId,
  );
  const byTask = new Map<string, typeof evs>();
  for (const e of evs) {
    const l = byTask.get(e.task_id) ?? [];
    l.push(e);
    byTask.set(e.task_id, l);
  }
  const taskLatency: { taskId: string; ms: number; startMs: number }[] = [];
  for (const [taskId, l] of byTask) {
    const created = l[0]!.created.getTime();
    const end = l.find((e) => e.type === 'TASK_STATUS_CHANGED' && TERMINAL.includes((e.payload as { to?: string } | null)?.to ?? ''));
    const start = l.find((e) => e.type === 'TURN_STARTED');
    taskLatency.push({ taskId, ms: end ? end.at.getTime() - created : NaN, startMs: start ? start.at.getTime() - created : NaN });
  }
  const jobs = await prisma.$queryRawUnsafe<{ turn_id: string; generation: string; state: string; created: Date; started: Date | null; task_id: string }[]>(
    `SELECT j.data->>'turnId' AS turn_id, j.data->>'generation' AS generation, j.state::text AS state,
            j.created_on AS created, j.started_on AS started, u.task_id::text AS task_id
       FROM pgboss.job j JOIN turns u ON u.id = (j.data->>'turnId')::uuid
      WHERE j.name = $1 ORDER BY j.created_on`,
    TURN_QUEUE,
  );
  const slowest = [...taskLatency].sort((a, b) => (b.ms || Infinity) - (a.ms || Infinity)).slice(0, 3).map((x) => {
    const l = byTask.get(x.taskId)!;
    const created = l[0]!.created.getTime();
    const killsDuring = kills.filter((k) => k.killAt >= created && k.killAt <= created + (x.ms || 1e9)).map((k) => `kill ${k.n}@${k.killAt - created}`);
    const line = l
      .filter((e) => e.type !== 'MODEL_CALL')
      .map((e) => `${e.type === 'TURN_STARTED' ? `TURN_STARTED(g${(e.payload as { generation?: number }).generation})` : e.type}@${e.at.getTime() - created}`)
      .join(' ');
    const jobLine = jobs
      .filter((j) => j.task_id === x.taskId)
      .map((j) => `job(g${j.generation}) ${j.state} created@${j.created.getTime() - created} started@${j.started ? j.started.getTime() - created : '-'}`)
      .join('; ');
    return `task ${x.taskId.slice(0, 8)} ${fmt(x.ms, 0)} ms [${killsDuring.join(', ') || 'no kill'}]: ${line}\n       wake-ups: ${jobLine}`;
  });
  // Wake-ups: generation 0 is sent with the task (and re-sent only when the turn stayed QUEUED past
  // ATELIER_STALE_QUEUED_MS, e.g. its job was fetched by a worker killed before it claimed the turn);
  // generation g ≥ 1 is sent by watchdogs for an expired lease of generation g.
  const jobsByKey = new Map<string, number>();
  for (const j of jobs) jobsByKey.set(`${j.turn_id}:${j.generation}`, (jobsByKey.get(`${j.turn_id}:${j.generation}`) ?? 0) + 1);
  let staleResent = 0;
  let takeoverJobs = 0;
  let takeoverKeys = 0;
  for (const [key, n] of jobsByKey) {
    if (key.endsWith(':0')) staleResent += n > 1 ? 1 : 0;
    else {
      takeoverKeys++;
      takeoverJobs += n;
    }
  }
  const killGaps = kills.slice(1).map((k, i) => k.killAt - kills[i]!.killAt);
  const logs = summarizeLogs(workers);
  const startMs = workers.filter((w) => w.readyAt !== undefined).map((w) => w.readyAt! - w.spawnedAt);
  const neverReady = workers.filter((w) => w.readyAt === undefined).length;
  // Time with no ready worker, while the load ran.
  let noWorkerMs = 0;
  for (let at = loadStart; at < loadStart + loadMs; at += 50) {
    const any = workers.some((w) => w.readyAt !== undefined && w.readyAt <= at && (w.exitedAt === undefined || w.exitedAt > at));
    if (!any) noWorkerMs += 50;
  }

  return {
    tasks: tasks.length,
    expectedTasks: N,
    feedStoppedEarly,
    statuses,
    loadMs,
    workersStarted: workers.length,
    neverReady,
    workerStartMs: { p50: percentile(startMs, 50), max: startMs.length ? Math.max(...startMs) : NaN },
    noWorkerMs,
    kills: perKill,
    killCount: kills.length,
    affectedTotal,
    affectedNoTakeover,
    takeovers,
    wakeups: { staleResent, takeoverJobs, takeoverKeys },
    killGaps,
    taskMs: taskLatency.map((x) => x.ms).filter(Number.isFinite),
    pickupMs: taskLatency.map((x) => x.startMs).filter(Number.isFinite),
    slowest,
    recovery: {
      toTakeover,
      toAnyEvent,
      leaseLeft,
      afterExpiry,
    },
    checks: { notTerminal, terminalEventAnomalies, unexpectedStatus, duplicateEffects, missingEffects, seqGaps, replayedEffects },
    anomalies,
    logs,
  };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = performance.now();
  installSqlCounter();
  const t = await startTestApp(
    'benchrt',
    {
      rateLimitPerMinute: 10_000_000,
      runtime: { leaseMs: 30_000, watchdogMs: 1000, staleQueuedMs: 30_000, workerConcurrency: CFG.concurrency, maxStepsPerTurn: 50, maxTurnsPerTask: 25, plugin: undefined },
    },
    { models: scriptedProvider(instantModel), tools: [noop] },
  );
  let tb: TestApp | undefined;
  let pgVersion = '';
  let overhead: { rows: OverheadRow[]; e2e: E2eResult } | undefined;
  let recovery: Awaited<ReturnType<typeof benchRecovery>> | undefined;
  try {
    const c = await pgClient(t.dbUrl);
    uncounted.add(c);
    const v = await c.query<{ v: string; f: string; s: string }>(
      "SELECT current_setting('server_version') AS v, current_setting('fsync') AS f, current_setting('synchronous_commit') AS s",
    );
    pgVersion = `PostgreSQL ${v.rows[0]!.v} (fsync=${v.rows[0]!.f}, synchronous_commit=${v.rows[0]!.s})`;
    await c.end();
    process.stderr.write(`bench:runtime (${CFG.mode}) on ${pgVersion}\n`);
    const rows = await benchOverhead(t);
    // (b) runs on a database of its own. Its worker processes need seconds to start: in quick mode
    // they start while the end-to-end case of (a) runs (its figures then share the CPU with them).
    let pool: Pool;
    let e2e: E2eResult;
    if (CFG.overlapE2e) {
      tb = await startTestApp('benchrec');
      pool = await startPool(tb);
      e2e = await runE2e(t, CFG.e2eTasks, CFG.concurrency);
    } else {
      e2e = await runE2e(t, CFG.e2eTasks, CFG.concurrency);
      tb = await startTestApp('benchrec');
      pool = await startPool(tb);
    }
    progress(`end-to-end done`);
    overhead = { rows, e2e };
    recovery = await benchRecovery(tb, pool);
  } finally {
    killAllChildren();
    await t.close();
    await tb?.close();
  }
  const totalS = (performance.now() - started) / 1000;

  const out: string[] = [];
  const S = CFG.overheadSteps;
  out.push('');
  out.push(`Atelier durable runtime benchmark (${CFG.mode}) — ${pgVersion}, node ${process.version}`);
  out.push('');
  out.push(`(a) Runtime overhead per step: scripted model answering instantly, no-op IDEMPOTENT tool.`);
  out.push(
    `    ${CFG.overheadTasks} tasks × ${S} steps (${S - 1} × bench_noop, then complete_task); a step = one model call + its tool call.`,
  );
  out.push(`    runTurn() called in this process (no worker, no pg-boss); ms/step = wall time / steps, claim and completion included.`);
  out.push(`    steady = time between consecutive bench_noop runs of one task (one whole step, claim/completion excluded);`);
  out.push(`    turn ms/step = mean runTurn() duration / steps (latency seen by one task); node cpu = this process's CPU time / steps.`);
  out.push(`    baseline = as many commits as the runtime made in that run (BEGIN…COMMIT transactions + autocommit writes),`);
  out.push(`    each BEGIN; INSERT one row; COMMIT on a raw pg connection (1 connection, or ${CFG.concurrency} for the concurrent row);`);
  out.push(`    ratio = runtime wall ms / baseline ms. Lease 30 s (the default), so no lease renewal falls inside these turns.`);
  out.push('');
  if (overhead) {
    out.push(
      table(
        ['case', 'steps', 'wall ms', 'ms/step', 'steady p50/p99', 'turn ms/step', 'node cpu ms/step', 'commits', 'baseline ms', 'base ms/step', 'ratio', 'not completed'],
        overhead.rows.map((r) => [
          r.label,
          String(r.run.steps),
          fmt(r.run.wallMs, 0),
          fmt(r.msPerStep, 2),
          `${fmt(percentile(r.run.steadyStepMs, 50), 2)}/${fmt(percentile(r.run.steadyStepMs, 99), 2)}`,
          fmt(mean(r.run.turnMs) / S, 2),
          fmt(r.run.cpuMs / r.run.steps, 1),
          String(r.baselineCommits),
          fmt(r.baselineMs, 0),
          fmt(r.baselineMsPerStep, 2),
          fmt(r.ratio, 1),
          String(r.run.notCompleted),
        ]),
      ),
    );
    out.push('');
    out.push(`    What was counted (statements this process sent through pg during the run, pg-boss's pool excluded):`);
    out.push(
      table(
        ['case', 'tx commits/step', 'with writes', 'fence-only', 'autocommit writes/step', 'rollbacks', 'statements/step', 'tx commits/task'],
        overhead.rows.map((r) => {
          const c = r.run.counts;
          const st = r.run.steps;
          return [
            r.label,
            fmt(c.txCommits / st, 2),
            fmt(c.txWriteCommits / st, 2),
            fmt((c.txCommits - c.txWriteCommits) / st, 2),
            fmt(c.autocommitWrites / st, 2),
            String(c.txRollbacks),
            fmt(c.statements / st, 1),
            fmt(c.txCommits / r.run.tasks, 1),
          ];
        }),
      ),
    );
    out.push(
      `    Expected from engine.ts/journal.ts: per task 1 claim tx + per step 5 tx (checkBoundary before the model [fence only],`,
    );
    out.push(`    commitStep, checkBoundary before the tool [fence only], markCallStarted, finishCall) = ${1 + 5 * S} tx per ${S}-step task.`);
    const e = overhead.e2e;
    out.push('');
    out.push(
      `    End to end through pg-boss and an in-process worker (concurrency ${e.concurrency}): ${e.tasks} tasks × ${S} steps created at once,` +
        ` all done in ${fmt(e.wallMs, 0)} ms = ${fmt(e.wallMs / e.steps, 2)} ms/step of wall time;`,
    );
    out.push(
      `    create→TURN_STARTED p50/p99 ${fmt(percentile(e.createToStartMs, 50), 0)}/${fmt(percentile(e.createToStartMs, 99), 0)} ms,` +
        ` TURN_STARTED→COMPLETED p50 ${fmt(percentile(e.turnMs, 50), 0)} ms (${fmt(percentile(e.turnMs, 50) / S, 2)} ms/step),` +
        ` create→COMPLETED p50/p99 ${fmt(percentile(e.createToCompleteMs, 50), 0)}/${fmt(percentile(e.createToCompleteMs, 99), 0)} ms;` +
        ` not completed: ${e.notCompleted}.`,
    );
    if (CFG.overlapE2e) out.push(`    (quick mode: measured while (b)'s worker processes were starting, so it shares the CPU with them.)`);
  }
  out.push('');
  if (recovery) {
    const r = recovery;
    out.push(
      `(b) Recovery: ${r.expectedTasks} tasks (plugin: ${PLUGIN_STEPS} × slow_step of ${WORKER_ENV.PLUGIN_TOOL_MS} ms, then complete_task),` +
        ` ${CFG.inFlight} not ended at any time; worker processes (concurrency ${WORKER_ENV.ATELIER_WORKER_CONCURRENCY} each) SIGKILLed`,
    );
    out.push(
      `    at least ${CFG.killGapMs[0] / 1000}–${CFG.killGapMs[1] / 1000} s apart and only while another worker is ready (so one stays alive): the ready one`,
    );
    out.push(
      `    holding the most RUNNING turns is killed and a replacement started at once, so the interval is bounded below by a worker's`,
    );
    out.push(
      QUICK
        ? `    start-up time. Kills stop after ${CFG.maxKills} (quick: ${CFG.initialWorkers} workers started up front, no replacement needed) or when every task has ended.`
        : `    start-up time. Kills stop after ${CFG.maxKills} or when every task has been created; the last tasks then finish without kills.`,
    );
    out.push(
      `    ATELIER_LEASE_MS=${LEASE_MS}, ATELIER_WATCHDOG_MS=${WORKER_ENV.ATELIER_WATCHDOG_MS}, ATELIER_STALE_QUEUED_MS=${WORKER_ENV.ATELIER_STALE_QUEUED_MS}; pg-boss polls every 1 s per work() slot.`,
    );
    out.push(
      `    affected task = a RUNNING turn whose lease_owner has the killed pid, read just after the process exited; recovery = kill → that`,
    );
    out.push(`    task's first TURN_STARTED {takeover: true} at a later generation of the same turn (any event: first event after the kill).`);
    out.push('');
    out.push(
      table(
        ['kill', 't s', 'pid', 'worker age s', 'other ready', 'running turns', 'affected', 'takeover p50 ms', 'max ms'],
        r.kills.map(({ kill, takeoverMs }) => [
          String(kill.n),
          fmt((kill.killAt - (r.kills[0]?.kill.killAt ?? kill.killAt)) / 1000, 1),
          String(kill.pid),
          fmt(kill.workerAgeMs / 1000, 1),
          String(kill.otherReadyWorkers),
          String(kill.runningTurnsTotal),
          String(kill.affected.length),
          fmt(percentile(takeoverMs, 50), 0),
          takeoverMs.length ? fmt(Math.max(...takeoverMs), 0) : 'n/a',
        ]),
      ),
    );
    out.push('');
    const rec = r.recovery;
    out.push(
      table(
        ['metric', 'value'],
        [
          [
            'tasks (created / planned)',
            `${r.tasks} / ${r.expectedTasks}${r.feedStoppedEarly ? ` (STOPPED EARLY: no new task after ${CFG.feedDeadlineS} s of run time)` : ''}`,
          ],
          ['final statuses', Object.entries(r.statuses).map(([k, v]) => `${k} ${v}`).join(', ')],
          ['load duration', `${fmt(r.loadMs / 1000, 1)} s (${fmt((r.tasks / r.loadMs) * 1000, 1)} tasks/s)`],
          ['task create → ended p50 / p99 / max', `${fmt(percentile(r.taskMs, 50), 0)} / ${fmt(percentile(r.taskMs, 99), 0)} / ${r.taskMs.length ? fmt(Math.max(...r.taskMs), 0) : 'n/a'} ms`],
          ['task create → first TURN_STARTED p50 / p99', `${fmt(percentile(r.pickupMs, 50), 0)} / ${fmt(percentile(r.pickupMs, 99), 0)} ms`],
          ['kills', `${r.killCount} (interval p50 ${fmt(percentile(r.killGaps, 50) / 1000, 1)} s, min ${r.killGaps.length ? fmt(Math.min(...r.killGaps) / 1000, 1) : 'n/a'} s)`],
          ['worker processes started / never ready', `${r.workersStarted} / ${r.neverReady}`],
          ['worker start → ready p50 / max', `${fmt(r.workerStartMs.p50 / 1000, 1)} / ${fmt(r.workerStartMs.max / 1000, 1)} s`],
          ['time with no ready worker during the load', `${fmt(r.noWorkerMs / 1000, 1)} s`],
          ['affected tasks (sum over kills)', String(r.affectedTotal)],
          ['kill → takeover p50 / p99 / max', `${fmt(percentile(rec.toTakeover, 50), 0)} / ${fmt(percentile(rec.toTakeover, 99), 0)} / ${rec.toTakeover.length ? fmt(Math.max(...rec.toTakeover), 0) : 'n/a'} ms  (lease ${LEASE_MS} ms)`],
          ['kill → first event of the task p50 / p99', `${fmt(percentile(rec.toAnyEvent, 50), 0)} / ${fmt(percentile(rec.toAnyEvent, 99), 0)} ms`],
          ['lease left at the kill p50 (min / max)', `${fmt(percentile(rec.leaseLeft, 50), 0)} ms (${rec.leaseLeft.length ? fmt(Math.min(...rec.leaseLeft), 0) : 'n/a'} / ${rec.leaseLeft.length ? fmt(Math.max(...rec.leaseLeft), 0) : 'n/a'})`],
          ['lease expiry → takeover p50 / p99', `${fmt(percentile(rec.afterExpiry, 50), 0)} / ${fmt(percentile(rec.afterExpiry, 99), 0)} ms (watchdog + pg-boss pick-up + claim)`],
          ['takeovers recorded (all tasks) / by affected tasks', `${r.takeovers} / ${rec.toTakeover.length}`],
          ['superseded turns logged by workers', String(r.logs.superseded)],
          ['turns whose first wake-up was lost (re-sent as stale QUEUED)', String(r.wakeups.staleResent)],
          ['takeover wake-ups sent / distinct (turn, generation)', `${r.wakeups.takeoverJobs} / ${r.wakeups.takeoverKeys}`],
          ['ANOMALIES', String(r.anomalies.length)],
          ['  not in a terminal state', String(r.checks.notTerminal)],
          ['  terminal TASK_STATUS_CHANGED count ≠ 1', String(r.checks.terminalEventAnomalies)],
          ['  duplicated effect (task, k)', String(r.checks.duplicateEffects)],
          ['  missing effect on a COMPLETED task', String(r.checks.missingEffects)],
          ['  event seq gaps', String(r.checks.seqGaps)],
          ['  affected task never taken over', String(r.affectedNoTakeover)],
          ['ended FAILED/CANCELLED (expected COMPLETED)', String(r.checks.unexpectedStatus)],
          ['effects replayed (same key run again; expected after kills)', String(r.checks.replayedEffects)],
          ['worker log errors', [...r.logs.errors].map(([m, n]) => `${m} ×${n}`).join('; ') || '0'],
          ['worker log warnings', [...r.logs.warns].map(([m, n]) => `${m} ×${n}`).join('; ') || '0'],
        ],
      ),
    );
    for (const a of r.anomalies.slice(0, 15)) out.push(`   ANOMALY ${a}`);
    if (r.anomalies.length > 15) out.push(`   … ${r.anomalies.length - 15} more anomalies`);
    for (const s of r.logs.samples) out.push(`   LOG ${s}`);
    out.push('   slowest tasks (ms after creation; MODEL_CALL events omitted):');
    for (const s of r.slowest) out.push(`     ${s}`);
  }
  out.push('');
  out.push(`total ${totalS.toFixed(1)} s`);
  console.log(out.join('\n'));

  const result = {
    mode: CFG.mode,
    postgres: pgVersion,
    node: process.version,
    totalSeconds: round(totalS, 1),
    overhead: overhead && {
      stepsPerTask: S,
      rows: overhead.rows.map((r) => ({
        case: r.label,
        tasks: r.run.tasks,
        steps: r.run.steps,
        concurrency: r.run.concurrency,
        wallMs: round(r.run.wallMs, 1),
        msPerStep: round(r.msPerStep, 3),
        steadyStepP50: round(percentile(r.run.steadyStepMs, 50), 3),
        steadyStepP99: round(percentile(r.run.steadyStepMs, 99), 3),
        turnMsPerStep: round(mean(r.run.turnMs) / S, 3),
        nodeCpuMsPerStep: round(r.run.cpuMs / r.run.steps, 2),
        sql: r.run.counts,
        baselineCommits: r.baselineCommits,
        baselineMs: round(r.baselineMs, 1),
        baselineMsPerStep: round(r.baselineMsPerStep, 3),
        ratio: round(r.ratio, 3),
        notCompleted: r.run.notCompleted,
      })),
      e2e: {
        tasks: overhead.e2e.tasks,
        steps: overhead.e2e.steps,
        concurrency: overhead.e2e.concurrency,
        wallMs: round(overhead.e2e.wallMs, 0),
        msPerStep: round(overhead.e2e.wallMs / overhead.e2e.steps, 3),
        createToStartP50: round(percentile(overhead.e2e.createToStartMs, 50), 0),
        createToStartP99: round(percentile(overhead.e2e.createToStartMs, 99), 0),
        turnP50: round(percentile(overhead.e2e.turnMs, 50), 0),
        createToCompleteP50: round(percentile(overhead.e2e.createToCompleteMs, 50), 0),
        createToCompleteP99: round(percentile(overhead.e2e.createToCompleteMs, 99), 0),
        notCompleted: overhead.e2e.notCompleted,
      },
    },
    recovery: recovery && {
      tasks: recovery.tasks,
      expectedTasks: recovery.expectedTasks,
      feedStoppedEarly: recovery.feedStoppedEarly,
      statuses: recovery.statuses,
      loadMs: recovery.loadMs,
      kills: recovery.killCount,
      killIntervalP50Ms: round(percentile(recovery.killGaps, 50), 0),
      taskCreateToEndP50: round(percentile(recovery.taskMs, 50), 0),
      taskCreateToEndP99: round(percentile(recovery.taskMs, 99), 0),
      staleQueuedResent: recovery.wakeups.staleResent,
      takeoverWakeups: recovery.wakeups.takeoverJobs,
      takeoverKeys: recovery.wakeups.takeoverKeys,
      workersStarted: recovery.workersStarted,
      workerStartP50Ms: round(recovery.workerStartMs.p50, 0),
      noWorkerMs: recovery.noWorkerMs,
      affected: recovery.affectedTotal,
      leaseMs: LEASE_MS,
      killToTakeoverP50: round(percentile(recovery.recovery.toTakeover, 50), 0),
      killToTakeoverP99: round(percentile(recovery.recovery.toTakeover, 99), 0),
      killToFirstEventP50: round(percentile(recovery.recovery.toAnyEvent, 50), 0),
      killToFirstEventP99: round(percentile(recovery.recovery.toAnyEvent, 99), 0),
      leaseExpiryToTakeoverP50: round(percentile(recovery.recovery.afterExpiry, 50), 0),
      leaseExpiryToTakeoverP99: round(percentile(recovery.recovery.afterExpiry, 99), 0),
      takeovers: recovery.takeovers,
      superseded: recovery.logs.superseded,
      anomalies: recovery.anomalies.length,
      checks: { ...recovery.checks, affectedNoTakeover: recovery.affectedNoTakeover },
      workerLogErrors: Object.fromEntries(recovery.logs.errors),
      workerLogWarnings: Object.fromEntries(recovery.logs.warns),
    },
  };
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    killAllChildren();
    process.exit(1);
  },
);
