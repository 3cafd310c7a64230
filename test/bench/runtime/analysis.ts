// bench:runtime (b): the timings of the recovery run, derived from what ./recovery.ts collected
// (kill → takeover beside the lease, task latency, wake-ups, worker start-up, the slowest tasks).
import { fmt, percentile } from '../stats.ts';
import { replayedEffects, type RecoveryCollected } from './checks.ts';
import { TERMINAL } from './config.ts';
import type { RecoveryLoad } from './recovery.ts';
import { summarizeLogs, type KillRecord } from './workers.ts';

export function analyzeRecovery(load: RecoveryLoad, c: RecoveryCollected) {
  const statuses: Record<string, number> = {};
  let takeovers = 0;
  for (const k of c.tasks) {
    statuses[k.status] = (statuses[k.status] ?? 0) + 1;
    takeovers += k.takeovers;
  }
  // Recovery time of each affected task: kill → its first TURN_STARTED {takeover} at a later
  // generation of the same turn (and kill → its first event of any kind after the kill).
  const toTakeover: number[] = [];
  const toAnyEvent: number[] = [];
  const leaseLeft: number[] = [];
  const afterExpiry: number[] = [];
  const perKill: { kill: KillRecord; takeoverMs: number[] }[] = load.kills.map((kill) => ({ kill, takeoverMs: [] }));
  for (const a of c.affected) {
    if (Number.isFinite(a.leaseExpiresAt)) leaseLeft.push(a.leaseExpiresAt - a.killAt);
    if (a.takeoverAt !== null) {
      toTakeover.push(a.takeoverAt - a.killAt);
      perKill[a.kill - 1]?.takeoverMs.push(a.takeoverAt - a.killAt);
      if (Number.isFinite(a.leaseExpiresAt)) afterExpiry.push(a.takeoverAt - a.leaseExpiresAt);
    }
    if (a.firstEventAt !== null) toAnyEvent.push(a.firstEventAt - a.killAt);
  }
  // Per-task latency (create → terminal event), and the timeline of the slowest tasks.
  const byTask = new Map<string, RecoveryCollected['events']>();
  for (const e of c.events) (byTask.get(e.task_id) ?? byTask.set(e.task_id, []).get(e.task_id)!).push(e);
  const taskLatency: { taskId: string; ms: number; startMs: number }[] = [];
  for (const [taskId, l] of byTask) {
    const created = l[0]!.created.getTime();
    const end = l.find((e) => e.type === 'TASK_STATUS_CHANGED' && TERMINAL.includes((e.payload as { to?: string } | null)?.to ?? ''));
    const start = l.find((e) => e.type === 'TURN_STARTED');
    taskLatency.push({ taskId, ms: end ? end.at.getTime() - created : NaN, startMs: start ? start.at.getTime() - created : NaN });
  }
  const slowest = [...taskLatency].sort((a, b) => (b.ms || Infinity) - (a.ms || Infinity)).slice(0, 3).map((x) => {
    const l = byTask.get(x.taskId)!;
    const created = l[0]!.created.getTime();
    const killsDuring = load.kills.filter((k) => k.killAt >= created && k.killAt <= created + (x.ms || 1e9)).map((k) => `kill ${k.n}@${k.killAt - created}`);
    const line = l
      .filter((e) => e.type !== 'MODEL_CALL')
      .map((e) => `${e.type === 'TURN_STARTED' ? `TURN_STARTED(g${(e.payload as { generation?: number }).generation})` : e.type}@${e.at.getTime() - created}`)
      .join(' ');
    const jobLine = c.wakeups
      .filter((j) => j.task_id === x.taskId)
      .map((j) => `job(g${j.generation}) ${j.state} created@${j.created.getTime() - created} started@${j.started ? j.started.getTime() - created : '-'}`)
      .join('; ');
    return `task ${x.taskId.slice(0, 8)} ${fmt(x.ms, 0)} ms [${killsDuring.join(', ') || 'no kill'}]: ${line}\n       wake-ups: ${jobLine}`;
  });
  // Wake-ups: generation 0 is sent with the task (and re-sent only when the turn stayed QUEUED past
  // ATELIER_STALE_QUEUED_MS, e.g. its job was fetched by a worker killed before it claimed the turn);
  // generation g ≥ 1 is sent by watchdogs for an expired lease of generation g.
  const jobsByKey = new Map<string, number>();
  for (const j of c.wakeups) jobsByKey.set(`${j.turn_id}:${j.generation}`, (jobsByKey.get(`${j.turn_id}:${j.generation}`) ?? 0) + 1);
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
  const workers = load.workers;
  const startMs = workers.filter((w) => w.readyAt !== undefined).map((w) => w.readyAt! - w.spawnedAt);
  // Time with no ready worker, while the load ran.
  let noWorkerMs = 0;
  for (let at = load.loadStart; at < load.loadStart + load.loadMs; at += 50) {
    if (!workers.some((w) => w.readyAt !== undefined && w.readyAt <= at && (w.exitedAt === undefined || w.exitedAt > at))) noWorkerMs += 50;
  }
  return {
    tasks: c.tasks.length,
    expectedTasks: c.planned,
    feedStoppedEarly: c.feedStoppedEarly,
    statuses,
    loadMs: load.loadMs,
    workersStarted: workers.length,
    neverReady: workers.filter((w) => w.readyAt === undefined).length,
    workerStartMs: { p50: percentile(startMs, 50), max: startMs.length ? Math.max(...startMs) : NaN },
    noWorkerMs,
    kills: perKill,
    killCount: load.kills.length,
    affectedTotal: c.affected.length,
    takeovers,
    wakeups: { staleResent, takeoverJobs, takeoverKeys },
    killGaps: load.kills.slice(1).map((k, i) => k.killAt - load.kills[i]!.killAt),
    taskMs: taskLatency.map((x) => x.ms).filter(Number.isFinite),
    pickupMs: taskLatency.map((x) => x.startMs).filter(Number.isFinite),
    slowest,
    recovery: { toTakeover, toAnyEvent, leaseLeft, afterExpiry },
    replayedEffects: replayedEffects(c),
    logs: summarizeLogs(workers),
  };
}

export type RecoveryFigures = ReturnType<typeof analyzeRecovery>;
