// bench:runtime (b): recovery when worker processes are SIGKILLed at random moments. This part
// runs the load (a feeder keeping tasks in flight, a killer) and collects what the database says
// afterwards; ./checks.ts judges it and ./analysis.ts derives the timings.
import { TURN_QUEUE } from '../../../server/store/scheduler.ts';
import { createTask } from '../../../server/services/tasks/create-task.ts';
import type { TestApp } from '../../helpers/app.ts';
import { pause, reached, waitFor } from '../../helpers/wait.ts';
import type { RecoveryCollected, TaskRow } from './checks.ts';
import { CFG, QUICK, progress, rand, viewerOf } from './config.ts';
import type { KillRecord, Pool, WorkerProc } from './workers.ts';

export type RecoveryLoad = { taskIds: string[]; kills: KillRecord[]; loadStart: number; loadMs: number; feedStoppedEarly: boolean; workers: WorkerProc[] };

export async function runRecoveryLoad(t: TestApp, pool: Pool): Promise<RecoveryLoad> {
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

  // Each `ready` settles by itself: true once the worker says so, false at its exit or past WORKER_START_TIMEOUT_MS.
  await Promise.all(workers.map((w) => w.ready));
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
      if (Date.now() - loadStart > CFG.feedDeadlineS * 1000) {
        feedStoppedEarly = true;
        break;
      }
      const deficit = Math.min(CFG.inFlight - (await notEnded()), N - taskIds.length);
      for (let i = 0; i < deficit; i++) {
        const task = await createTask(t.app.deps, viewer, { workspaceId, title: `recovery-${taskIds.length}` });
        taskIds.push(task.id);
      }
      // The feeder's pace: it tops the load up every 50 ms.
      await pause(50);
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
      // No bound of its own: the settle phase below ends the killing (stopKilling) whatever happens.
      await waitFor(() => stopKilling() || (Date.now() - lastKill >= gap && ready().length >= 2), 'the next moment to kill', { timeoutMs: Infinity, intervalMs: 20 });
      if (stopKilling()) break;
      const owners = await prisma.$queryRawUnsafe<{ owner: string | null; n: number }[]>(
        `SELECT lease_owner AS owner, count(*)::int AS n FROM turns WHERE status = 'RUNNING' GROUP BY lease_owner`,
      );
      const held = (w: WorkerProc) => owners.filter((o) => o.owner?.includes(`:${w.pid}:`)).reduce((a, o) => a + o.n, 0);
      const candidates = ready();
      if (candidates.length < 2) continue;
      const victim = candidates.reduce((best, w) => (held(w) > held(best) ? w : best), candidates[0]!);
      const killAt = Date.now();
      victim.killedAt = killAt;
      victim.child.kill('SIGKILL');
      lastKill = killAt;
      if (!stopKilling() && live().length - 1 < CFG.poolTarget && kills.length + 1 < CFG.maxKills) pool.add();
      await victim.exit;
      // The dead process can no longer write: its RUNNING turns are exactly what it held at the kill.
      const rows = await prisma.$queryRawUnsafe<{ task_id: string; number: number; generation: number; lease_expires_at: Date | null; owner: string | null }[]>(
        `SELECT task_id, number, generation, lease_expires_at, lease_owner AS owner FROM turns WHERE status = 'RUNNING'`,
      );
      const mine = rows.filter((r) => r.owner?.includes(`:${victim.pid}:`));
      kills.push({
        n: kills.length + 1,
        pid: victim.pid,
        workerN: victim.n,
        killAt,
        workerAgeMs: killAt - (victim.readyAt ?? victim.spawnedAt),
        otherReadyWorkers: candidates.length - 1,
        affected: mine.map((r) => ({ taskId: r.task_id, turnNumber: r.number, generation: r.generation, leaseExpiresAt: r.lease_expires_at?.getTime() ?? NaN })),
        runningTurnsTotal: rows.length,
      });
      progress(`kill ${kills.length}: worker ${victim.n} (pid ${victim.pid}), ${mine.length} running turns`);
    }
  })();

  await feeder;
  // Tasks still open at the bound are the checks' to report.
  await reached(
    async () => {
      if ((await notEnded()) === 0) return true;
      // Never leave the run without a worker (a failed start, or the pool shrank at the end).
      if (live().length === 0) pool.add();
      return false;
    },
    { timeoutMs: CFG.settleTimeoutMs, intervalMs: 100 },
  );
  const loadMs = Date.now() - loadStart;
  allEnded = true; // stops the killer (whether or not every task ended: the checks say)
  await killer;
  for (const w of live()) w.child.kill('SIGKILL');
  await reached(() => workers.every((w) => w.exited), { timeoutMs: 5000 });
  progress('recovery load done');
  return { taskIds, kills, loadStart, loadMs, feedStoppedEarly, workers };
}

/** What the database says after the load (everything ./checks.ts and ./analysis.ts need). */
export async function collectRecovery(t: TestApp, load: RecoveryLoad): Promise<RecoveryCollected> {
  const { prisma } = t.app.deps;
  const workspaceId = t.a.workspaceId;
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
            (SELECT count(DISTINCT seq)::int FROM task_events e WHERE e.task_id = t.id) AS distinct_seqs,
            (SELECT COALESCE(max(seq), 0)::int FROM task_events e WHERE e.task_id = t.id) AS max_seq
       FROM tasks t WHERE t.workspace_id = $1::uuid`,
    workspaceId,
  );
  const effects = await prisma.$queryRawUnsafe<{ task_id: string; k: number; n: number; runs: number }[]>(
    'SELECT task_id::text AS task_id, k, count(*)::int AS n, sum(runs)::int AS runs FROM test_effects GROUP BY task_id, k',
  );
  // Each affected task: its first TURN_STARTED {takeover} at a later generation of the same turn,
  // and its first event of any kind after the kill.
  const affected: RecoveryCollected['affected'] = [];
  for (const kill of load.kills) {
    for (const a of kill.affected) {
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
      affected.push({ kill: kill.n, killAt: kill.killAt, ...a, takeoverAt: tk[0]?.at.getTime() ?? null, firstEventAt: any[0]?.at.getTime() ?? null });
    }
  }
  const events = await prisma.$queryRawUnsafe<RecoveryCollected['events']>(
    `SELECT e.task_id::text AS task_id, e.seq, e.type, e.occurred_at AS at, e.payload, t.created_at AS created
       FROM task_events e JOIN tasks t ON t.id = e.task_id WHERE t.workspace_id = $1::uuid ORDER BY e.task_id, e.seq`,
    workspaceId,
  );
  const wakeups = await prisma.$queryRawUnsafe<RecoveryCollected['wakeups']>(
    `SELECT j.data->>'turnId' AS turn_id, j.data->>'generation' AS generation, j.state::text AS state,
            j.created_on AS created, j.started_on AS started, u.task_id::text AS task_id
       FROM pgboss.job j JOIN turns u ON u.id = (j.data->>'turnId')::uuid
      WHERE j.name = $1 ORDER BY j.created_on`,
    TURN_QUEUE,
  );
  return { planned: CFG.recoveryTasks, created: load.taskIds.length, feedStoppedEarly: load.feedStoppedEarly, kills: load.kills.length, tasks, effects, affected, events, wakeups };
}

