// The processes of the product (API and workers) and their heartbeats. Reporting only: recovery
// never depends on this table (leases and the watchdog decide); an operator reads it to see which
// processes are alive, ready and busy.
import { hostname } from 'node:os';
import type { PrismaClient } from '../db/client.ts';
import type { Logger } from '../log.ts';

export type ProcessKind = 'API' | 'WORKER';

export type Heartbeat = { stop(): Promise<void>; ready(): Promise<void> };

/**
 * Registers this process and beats every `intervalMs` with `running()` (the turns it runs now).
 * Failures to beat are logged and retried at the next beat: a database hiccup does not stop work.
 */
export function startHeartbeat(
  prisma: PrismaClient,
  log: Logger,
  args: { id: string; kind: ProcessKind; concurrency: number; intervalMs: number; running: () => number },
): Heartbeat {
  const base = { kind: args.kind, hostname: hostname(), pid: process.pid, concurrency: args.concurrency };
  // Statement: one row per process id; a beat moves last_beat_at and the running count forward.
  const beat = () =>
    prisma.runtimeProcess
      .upsert({
        where: { id: args.id },
        create: { id: args.id, ...base, running: args.running() },
        update: { lastBeatAt: new Date(), running: args.running(), stoppedAt: null },
      })
      .then(() => undefined);
  const first = beat().catch((e) => log.warn('heartbeat failed', { error: (e as Error).message }));
  const timer = setInterval(() => void beat().catch((e) => log.warn('heartbeat failed', { error: (e as Error).message })), args.intervalMs);
  timer.unref();
  return {
    ready: async () => {
      await first;
      await prisma.runtimeProcess.update({ where: { id: args.id }, data: { readyAt: new Date() } }).catch(() => {});
    },
    stop: async () => {
      clearInterval(timer);
      await prisma.runtimeProcess.update({ where: { id: args.id }, data: { stoppedAt: new Date(), running: 0 } }).catch(() => {});
    },
  };
}

export type ProcessRow = Awaited<ReturnType<PrismaClient['runtimeProcess']['findMany']>>[number] & { alive: boolean };

/** Processes seen in the last hour, newest first; `alive` when the last beat is within 3 intervals. */
export async function listProcesses(prisma: PrismaClient, heartbeatMs: number): Promise<ProcessRow[]> {
  const rows = await prisma.runtimeProcess.findMany({
    where: { lastBeatAt: { gt: new Date(Date.now() - 3_600_000) } },
    orderBy: [{ startedAt: 'desc' }],
    take: 200,
  });
  const now = Date.now();
  return rows.map((r) => ({ ...r, alive: !r.stoppedAt && now - r.lastBeatAt.getTime() < 3 * heartbeatMs }));
}
