// bench:runtime (b)'s worker processes: spawned like `npm run worker` (the runtime plugin of
// test/fixtures/runtime-plugin.ts), killed with SIGKILL by ./recovery.ts, and their logs summed up.
import { spawn, type ChildProcess } from 'node:child_process';
import { serverEntryArgs } from '../../../server/build.mjs';
import { EFFECTS_TABLE_SQL } from '../../fixtures/runtime-plugin.ts';
import type { TestApp } from '../../helpers/app.ts';
import { CFG, ROOT, WORKER_ENV, WORKER_READY, WORKER_START_TIMEOUT_MS } from './config.ts';

export type WorkerProc = {
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

export function killAllChildren() {
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
export function spawnWorker(dbUrl: string, env: Record<string, string> = {}): WorkerProc {
  // The same command as npm run worker / test/helpers/process.ts, spawned here so that the pid is
  // known at once and a process that never becomes ready is still killed at the end.
  const child = spawn(process.execPath, [...serverEntryArgs(ROOT, 'main'), '--worker-only'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', DATABASE_URL: dbUrl, ...WORKER_ENV, ...env },
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

export type Affected = { taskId: string; turnNumber: number; generation: number; leaseExpiresAt: number };
export type KillRecord = {
  n: number;
  pid: number;
  workerN: number;
  killAt: number;
  workerAgeMs: number;
  otherReadyWorkers: number;
  affected: Affected[];
  runningTurnsTotal: number;
};

export type LogSummary = { errors: Map<string, number>; warns: Map<string, number>; superseded: number; watchdogReenqueues: number; samples: string[] };

export function summarizeLogs(workers: WorkerProc[]): LogSummary {
  const s: LogSummary = { errors: new Map(), warns: new Map(), superseded: 0, watchdogReenqueues: 0, samples: [] };
  for (const w of workers) {
    for (const line of w.output.split('\n')) {
      if (!line.startsWith('{')) {
        if (/error|exception/i.test(line) && s.samples.length < 5) s.samples.push(`worker ${w.n}: ${line.slice(0, 300)}`);
        continue;
      }
      let rec: { level?: string; msg?: string; error?: string; mismatched?: unknown[] };
      try {
        rec = JSON.parse(line) as typeof rec;
      } catch {
        continue;
      }
      const msg = rec.msg ?? '?';
      if (rec.level === 'error') {
        s.errors.set(msg, (s.errors.get(msg) ?? 0) + 1);
        // The message and the end of the error (Prisma puts the cause after the query it quotes).
        const err = (rec.error ?? '').replace(/\s+/g, ' ');
        if (s.samples.length < 5) s.samples.push(`worker ${w.n}: ${msg}: ${err.length > 500 ? `${err.slice(0, 120)} … ${err.slice(-380)}` : err}`);
      } else if (rec.level === 'warn') s.warns.set(msg, (s.warns.get(msg) ?? 0) + 1);
      if (msg.startsWith('turn superseded')) s.superseded++;
      if (msg.startsWith('watchdog re-enqueued')) s.watchdogReenqueues++;
    }
  }
  return s;
}

export type Pool = { workers: WorkerProc[]; startedAt: number; add(): WorkerProc };

/** Starts (b)'s first worker processes on their own database (they take a few seconds to be ready). */
export async function startPool(t: TestApp): Promise<Pool> {
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

/**
 * Start-up time of a worker process on an idle machine: `n` workers started one after another,
 * each alone (nothing else of the benchmark running), from spawn to "worker running"; each is
 * stopped (SIGTERM) before the next starts. The recovery load measures starts under load too.
 */
export async function idleWorkerStarts(dbUrl: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    // The product's worker as `npm run worker` starts it: no runtime plugin (the recovery load's
    // plugin is TypeScript, loaded through a transpiler, which is not what a deployment runs).
    const w = spawnWorker(dbUrl, { ATELIER_RUNTIME_PLUGIN: '' });
    const ok = await w.ready;
    if (ok && w.readyAt !== undefined) out.push(w.readyAt - w.spawnedAt);
    w.child.kill('SIGTERM');
    await w.exit;
    children.delete(w.child);
  }
  return out;
}
