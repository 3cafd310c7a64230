// bench:runtime (c): throughput of the same batch of tasks with 1, 2 and 4 worker processes in one
// run. Each worker count gets a database of its own (so the later rounds do not run on bigger tables)
// and worker processes started like `npm run worker` (the compiled server) with an instant scripted
// model and a no-op tool (test/fixtures/scaleout-plugin.ts): what is measured is the runtime's own
// work per step (lease, journal, events, wake-ups) and the database behind it.
//
// Per round: start N workers and wait until every one says it is ready (start-up is not measured);
// a warm-up batch (JIT, pools, prepared plans) runs to the end; then the measured batch is created
// through the service layer in this process, as the API would, and the clock runs from the first
// creation to the last COMPLETED. tasks/s and steps/s (steps counted in the database) are reported
// with their ratio to one process. Every task must complete exactly once; anything else is an error.
//
// On a 2-core machine expect sub-linear figures: the worker processes, this process (the API side)
// and PostgreSQL share the same two cores.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ensureServerBuild, serverEntryArgs } from '../../../server/build.mjs';
import { createTask } from '../../../server/services/tasks/create-task.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { reached, waitFor } from '../../helpers/wait.ts';
import { ROOT, WORKER_READY, WORKER_START_TIMEOUT_MS, viewerOf } from './config.ts';

export type ScaleoutOptions = {
  /** Worker process counts, in order (default 1, 2, 4). */
  workerCounts?: readonly number[];
  /** Tasks in the measured batch (default 80). */
  tasks?: number;
  /** Model steps per task, the last one completing it (default 6). */
  steps?: number;
  /** Turn slots per worker process (default 8; the same in every round, as a deployment adds processes). */
  concurrency?: number;
  /** Warm-up tasks per round (default 2 per worker process). */
  warmupPerWorker?: number;
  /** Bound on one batch (default 180 s). */
  batchTimeoutMs?: number;
  log?: (msg: string) => void;
};

export type ScaleoutRow = {
  workers: number;
  tasks: number;
  steps: number;
  seconds: number;
  tasksPerS: number;
  stepsPerS: number;
  /** Throughput against one process in the same run (tasks/s; steps/s read the same). */
  ratio: number;
  /** Share of the measured batch each process ran (turns it claimed), to see that all took part. */
  perWorkerShare: number[];
  /** Seconds from spawn to ready of the slowest worker (not part of the measurement). */
  startS: number;
  /** The machine's 1-minute load average at the end of the batch (other work on the machine shows here). */
  loadAvg: number;
  /**
   * CPU seconds spent during the measured batch by the worker processes, by every PostgreSQL
   * process on the machine, and by this process (task creation, the completion poll): where the two
   * cores went. Linux only (read from /proc); null elsewhere.
   */
  cpuS: { workers: number; postgres: number; bench: number } | null;
};

const TICK = 100; // USER_HZ on Linux
/** utime + stime of a process in seconds, from /proc/<pid>/stat (0 when it is gone). */
function cpuOf(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / TICK;
  } catch {
    return 0;
  }
}
/** CPU seconds of every process whose name starts with `postgres` (all databases on this server). */
function postgresCpu(): number {
  let sum = 0;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, 'utf8').startsWith('postgres')) sum += cpuOf(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}
function cpuSnapshot(pids: number[]): { workers: number; postgres: number; bench: number } | null {
  if (process.platform !== 'linux') return null;
  const u = process.cpuUsage();
  return { workers: pids.reduce((a, p) => a + cpuOf(p), 0), postgres: postgresCpu(), bench: (u.user + u.system) / 1e6 };
}

export type ScaleoutResult = { concurrency: number; stepsPerTask: number; rows: ScaleoutRow[] };

type Proc = { child: ChildProcess; pid: number; output: string; workerId?: string; spawnedAt: number; readyAt?: number; exit: Promise<void> };

const children = new Set<ChildProcess>();
const killChildren = () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
};
process.on('exit', killChildren);

function spawnWorker(dbUrl: string, env: Record<string, string>): Proc {
  // The same command as npm run worker (compiled server, --worker-only), so the pid is known at once.
  const child = spawn(process.execPath, [...serverEntryArgs(ROOT, 'main'), '--worker-only'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', DATABASE_URL: dbUrl, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const p: Proc = { child, pid: child.pid ?? -1, output: '', spawnedAt: Date.now(), exit: Promise.resolve() };
  p.exit = new Promise((r) => child.once('exit', () => (children.delete(child), r())));
  child.stdout!.on('data', (d) => {
    p.output += d;
    const m = WORKER_READY.exec(p.output);
    if (m && p.readyAt === undefined) {
      p.readyAt = Date.now();
      p.workerId = m[1];
    }
  });
  child.stderr!.on('data', (d) => (p.output += d));
  return p;
}

async function completedCount(t: TestApp, workspaceId: string, titlePrefix: string): Promise<{ done: number; failed: number }> {
  const r = await t.app.deps.prisma.$queryRawUnsafe<{ done: number; failed: number }[]>(
    `SELECT count(*) FILTER (WHERE status = 'COMPLETED')::int AS done,
            count(*) FILTER (WHERE status IN ('FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'))::int AS failed
       FROM tasks WHERE workspace_id = $1::uuid AND title LIKE $2`,
    workspaceId,
    `${titlePrefix}%`,
  );
  return r[0]!;
}

/** Creates `n` tasks (8 at a time, as concurrent API requests would) and waits for all to complete. */
async function runBatch(t: TestApp, prefix: string, n: number, timeoutMs: number): Promise<number> {
  const workspaceId = t.a.workspaceId;
  const viewer = viewerOf(t.a.ownerId, workspaceId);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < n) {
        const i = next++;
        await createTask(t.app.deps, viewer, { workspaceId, title: `${prefix}-${i}` });
      }
    }),
  );
  let failed = 0;
  const ok = await reached(
    async () => {
      const c = await completedCount(t, workspaceId, prefix);
      failed = c.failed;
      return c.done + c.failed >= n;
    },
    { timeoutMs, intervalMs: 50 },
  );
  const ms = performance.now() - started;
  if (!ok) throw new Error(`scaleout: batch ${prefix} not finished within ${timeoutMs} ms`);
  if (failed > 0) throw new Error(`scaleout: ${failed} tasks of batch ${prefix} did not complete`);
  return ms;
}

export async function runScaleout(opts: ScaleoutOptions = {}): Promise<ScaleoutResult> {
  const counts = opts.workerCounts ?? [1, 2, 4];
  const tasks = opts.tasks ?? 80;
  const steps = opts.steps ?? 6;
  const concurrency = opts.concurrency ?? 8;
  const warmupPer = opts.warmupPerWorker ?? 2;
  const timeoutMs = opts.batchTimeoutMs ?? 180_000;
  const log = opts.log ?? ((m: string) => void process.stderr.write(`  [scaleout] ${m}\n`));
  await ensureServerBuild(ROOT);
  const env = {
    ATELIER_RUNTIME_PLUGIN: 'test/fixtures/scaleout-plugin.ts',
    SCALEOUT_STEPS: String(steps),
    ATELIER_WORKER_CONCURRENCY: String(concurrency),
    // The defaults of a deployment, except a shorter lease: no worker dies here, so it never matters.
    ATELIER_LEASE_MS: '10000',
    ATELIER_LOG_LEVEL: 'warn',
  };
  const rows: ScaleoutRow[] = [];
  for (const n of counts) {
    // The API side (task creation) in this process; no worker in it: only the spawned processes run turns.
    const t = await startTestApp(`scaleout${n}`, { rateLimitPerMinute: 10_000_000 });
    const procs: Proc[] = [];
    try {
      for (let i = 0; i < n; i++) procs.push(spawnWorker(t.dbUrl, env));
      await waitFor(() => procs.every((p) => p.readyAt !== undefined) || procs.some((p) => p.child.exitCode !== null), `${n} worker processes ready`, {
        timeoutMs: WORKER_START_TIMEOUT_MS,
        intervalMs: 50,
      });
      const dead = procs.find((p) => p.readyAt === undefined);
      if (dead) throw new Error(`scaleout: a worker process did not start:\n${dead.output.slice(0, 3000)}`);
      const startS = Math.max(...procs.map((p) => p.readyAt! - p.spawnedAt)) / 1000;
      await runBatch(t, 'warmup', warmupPer * n, timeoutMs);
      const cpu0 = cpuSnapshot(procs.map((p) => p.pid));
      const ms = await runBatch(t, 'measured', tasks, timeoutMs);
      const cpu1 = cpuSnapshot(procs.map((p) => p.pid));
      const st = await t.app.deps.prisma.$queryRawUnsafe<{ steps: number }[]>(
        `SELECT count(*)::int AS steps FROM steps s JOIN tasks k ON k.id = s.task_id WHERE k.workspace_id = $1::uuid AND k.title LIKE 'measured%'`,
        t.a.workspaceId,
      );
      const owners = await t.app.deps.prisma.$queryRawUnsafe<{ owner: string; n: number }[]>(
        `SELECT u.lease_owner AS owner, count(*)::int AS n FROM turns u JOIN tasks k ON k.id = u.task_id
          WHERE k.workspace_id = $1::uuid AND k.title LIKE 'measured%' GROUP BY 1`,
        t.a.workspaceId,
      );
      const turns = owners.reduce((a, o) => a + o.n, 0);
      const share = procs.map((p) => (owners.find((o) => o.owner === p.workerId)?.n ?? 0) / Math.max(1, turns));
      const s = ms / 1000;
      const row: ScaleoutRow = {
        workers: n,
        tasks,
        steps: st[0]!.steps,
        seconds: s,
        tasksPerS: tasks / s,
        stepsPerS: st[0]!.steps / s,
        ratio: 1,
        perWorkerShare: share,
        startS,
        loadAvg: loadavg()[0]!,
        cpuS: cpu0 && cpu1 ? { workers: cpu1.workers - cpu0.workers, postgres: cpu1.postgres - cpu0.postgres, bench: cpu1.bench - cpu0.bench } : null,
      };
      rows.push(row);
      log(`${n} worker process(es): ${tasks} tasks, ${row.steps} steps in ${s.toFixed(2)} s = ${row.tasksPerS.toFixed(1)} tasks/s, ${row.stepsPerS.toFixed(1)} steps/s`);
    } finally {
      for (const p of procs) p.child.kill('SIGKILL');
      await Promise.all(procs.map((p) => p.exit));
      await t.close();
    }
  }
  const base = rows.find((r) => r.workers === 1) ?? rows[0]!;
  for (const r of rows) r.ratio = r.tasksPerS / base.tasksPerS;
  return { concurrency, stepsPerTask: steps, rows };
}

/** Report lines for bench:runtime's output. */
export function scaleoutLines(r: ScaleoutResult): string[] {
  const out = [`(c) scale-out: the same batch with 1, 2, 4 worker processes (${r.concurrency} slots each, ${r.stepsPerTask} steps per task, instant model, no-op tool)`];
  out.push('  workers   tasks   steps   seconds   tasks/s   steps/s   × 1 process   load avg   CPU s workers/postgres/bench   share of turns per process');
  for (const x of r.rows) {
    out.push(
      `  ${String(x.workers).padStart(7)} ${String(x.tasks).padStart(7)} ${String(x.steps).padStart(7)} ${x.seconds.toFixed(2).padStart(9)} ${x.tasksPerS.toFixed(1).padStart(9)} ${x.stepsPerS.toFixed(1).padStart(9)} ${x.ratio.toFixed(2).padStart(13)} ${x.loadAvg.toFixed(1).padStart(10)}   ${(x.cpuS ? `${x.cpuS.workers.toFixed(1)} / ${x.cpuS.postgres.toFixed(1)} / ${x.cpuS.bench.toFixed(1)}` : 'n/a').padStart(28)}   ${x.perWorkerShare.map((s) => `${Math.round(s * 100)}%`).join(' / ')}`,
    );
  }
  return out;
}
