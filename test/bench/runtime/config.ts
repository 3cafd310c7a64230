// bench:runtime's settings and small helpers, shared by its parts (./overhead.ts, ./workers.ts,
// ./recovery.ts, ./analysis.ts, ./report.ts).
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { Viewer } from '../../../server/auth/viewer.ts';

export const QUICK = process.argv.includes('--quick');

export const CFG = QUICK
  ? {
      mode: 'quick',
      overheadTasks: 3,
      overheadSteps: 5,
      /** Rounds of (runtime batch, baseline batch), the order alternating; figures are medians. */
      overheadRounds: 3,
      concurrency: 4,
      /** Warm-up tasks per unit of concurrency. */
      warmupTasks: 1,
      e2eTasks: 4,
      /** As many as may be in flight: all are created at once, so none is cut by the feed deadline. */
      recoveryTasks: 20,
      inFlight: 20,
      /** Kills stop at this count (or when every task has ended). */
      maxKills: 2,
      /** Start (b)'s worker processes while (a)'s end-to-end case runs (saves ~10 s). */
      overlapE2e: true,
      /** No new task after this many seconds of the recovery load. */
      feedDeadlineS: 60,
      killGapMs: [1500, 3000] as const,
      /** Worker processes started before the first task (more than one so a kill never leaves none). */
      initialWorkers: 3,
      /** Processes (ready or starting) kept while kills continue. */
      poolTarget: 2,
      settleTimeoutMs: 45_000,
    }
  : {
      mode: 'full',
      overheadTasks: 10,
      overheadSteps: 10,
      overheadRounds: 5,
      concurrency: 4,
      warmupTasks: 2,
      e2eTasks: 12,
      recoveryTasks: 200,
      inFlight: 20,
      /** Kills are bounded by worker start-up (each replacement costs seconds of CPU on a small machine). */
      maxKills: 10,
      overlapE2e: false,
      feedDeadlineS: 180,
      killGapMs: [1500, 3000] as const,
      initialWorkers: 2,
      poolTarget: 2,
      settleTimeoutMs: 90_000,
    };

/** Environment of the worker processes of (b) (ATELIER_LOG_LEVEL=info to count supersessions). */
export const WORKER_ENV = {
  ATELIER_RUNTIME_PLUGIN: 'test/fixtures/runtime-plugin.ts',
  ATELIER_LEASE_MS: '1500',
  ATELIER_WATCHDOG_MS: '250',
  ATELIER_STALE_QUEUED_MS: '3000',
  ATELIER_WORKER_CONCURRENCY: '20',
  PLUGIN_STEPS: '4',
  PLUGIN_TOOL_MS: '100',
  ATELIER_LOG_LEVEL: 'info',
};
export const PLUGIN_STEPS = Number(WORKER_ENV.PLUGIN_STEPS);
export const LEASE_MS = Number(WORKER_ENV.ATELIER_LEASE_MS);
export const WORKER_READY = /Atelier worker running \(([^)]+)\)/;
export const WORKER_START_TIMEOUT_MS = 60_000;
export const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELLED'];
export const ROOT = new URL('../../../', import.meta.url).pathname;

export const T0 = performance.now();
export const progress = (msg: string) => void process.stderr.write(`  [${((performance.now() - T0) / 1000).toFixed(1)} s] ${msg}\n`);
export const rand = (lo: number, hi: number) => lo + Math.random() * (hi - lo);

export async function pgClient(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

export function viewerOf(userId: string, workspaceId: string): Viewer {
  return { userId, credentialId: 'bench', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[workspaceId, 'OWNER']]) };
}
