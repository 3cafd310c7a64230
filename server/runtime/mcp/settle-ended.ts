// Settling what an ended task left held for its MCP calls. A call's outcome settles its own hold
// (bus.ts); when the task ends (cancelled, failed, over budget, completed) with a call that never
// got an outcome — its worker died, and no takeover came because the task was stopped — nothing
// else would, and the price would stay held for ever. The rule is the one a takeover applies:
//  - a call still PENDING was never sent (the price is held in preflight, before the call is marked
//    started): RELEASE;
//  - a call STARTED may have reached the server: CHARGE, as an OUTCOME_UNKNOWN call is charged
//    (the person must not pay twice, and must not be told it did not happen when it may have);
//  - a finished call whose settlement is missing: CHARGE when it was DONE or OUTCOME_UNKNOWN,
//    RELEASE when it FAILED.
// A call whose turn still holds a live lease is left to its worker. Runs right after this process
// commits a task's end, and as a slow sweep for ends committed by a process that died.
import type { PrismaClient } from '../../db/client.ts';
import type { Logger } from '../../log.ts';
import { insertSettlement } from '../../store/ledger-holds.ts';
import { endedTasksWithUnsettledCallHolds, mcpCallsOfTask, unsettledCallHoldsOfEndedTask } from '../../store/mcp/call-holds.ts';
import { holdIdOf } from './bus.ts';

export type EndedSettlement = { jobId: string; kind: 'CHARGE' | 'RELEASE'; callId: string | null };

/**
 * Settles the unsettled MCP call holds of one ended task. Returns what it settled, and when to look
 * again for calls it left to a worker whose lease is still live (that worker may be dead: once its
 * lease has expired, nobody else will settle them).
 */
export async function settleMcpHoldsOfEndedTask(prisma: PrismaClient, taskId: string): Promise<{ settled: EndedSettlement[]; retryAt: Date | null }> {
  const holds = await unsettledCallHoldsOfEndedTask(prisma, taskId);
  if (!holds.length) return { settled: [], retryAt: null };
  const calls = await mcpCallsOfTask(prisma, taskId);
  const byHold = new Map(calls.map((c) => [holdIdOf(c.id), c]));
  const done: EndedSettlement[] = [];
  let retryAt: Date | null = null;
  for (const hold of holds) {
    const call = byHold.get(hold.jobId) ?? null;
    if (call?.leased) {
      // Its worker still runs it and settles it with its outcome — unless it died.
      if (call.leaseExpiresAt && (!retryAt || call.leaseExpiresAt > retryAt)) retryAt = call.leaseExpiresAt;
      continue;
    }
    const status = call?.status ?? 'PENDING';
    const kind: 'CHARGE' | 'RELEASE' = status === 'STARTED' || status === 'DONE' || status === 'OUTCOME_UNKNOWN' ? 'CHARGE' : 'RELEASE';
    const why =
      status === 'PENDING'
        ? 'the task ended before the call was sent; nothing was sent'
        : status === 'STARTED'
          ? 'the task ended while the call may have reached the server; charged once, as for an unknown outcome'
          : `the task ended; the call had ${status.toLowerCase().replace('_', ' ')}`;
    await prisma.$transaction((tx) =>
      insertSettlement(tx, { workspaceId: hold.workspaceId, taskId: hold.taskId, jobId: hold.jobId, kind, amountCents: hold.amountCents, reason: `${hold.reason}: ${why}` }),
    );
    done.push({ jobId: hold.jobId, kind, callId: call?.id ?? null });
  }
  return { settled: done, retryAt };
}

/**
 * Settles an ended task's holds now, and once more just after the leases it had to respect have
 * expired (a worker that died mid-call never settles its call).
 */
export function settleMcpHoldsWhenEnded(prisma: PrismaClient, log: Logger, taskId: string, attempt = 1): void {
  settleMcpHoldsOfEndedTask(prisma, taskId)
    .then(({ retryAt }) => {
      if (!retryAt || attempt >= 5) return;
      const timer = setTimeout(() => settleMcpHoldsWhenEnded(prisma, log, taskId, attempt + 1), Math.max(0, retryAt.getTime() - Date.now()) + 250);
      timer.unref();
    })
    .catch((e) => log.warn('settling the MCP calls of an ended task failed; the sweep retries', { taskId, error: (e as Error).message }));
}

/** The sweep behind the reaction: settles the holds of up to `limit` ended tasks. */
export async function sweepMcpHoldsOfEndedTasks(prisma: PrismaClient, log: Logger, limit = 50): Promise<number> {
  let settled = 0;
  for (const taskId of await endedTasksWithUnsettledCallHolds(prisma, limit)) {
    try {
      settled += (await settleMcpHoldsOfEndedTask(prisma, taskId)).settled.length;
    } catch (e) {
      log.warn('settling the MCP calls of an ended task failed; the next sweep retries', { taskId, error: (e as Error).message });
    }
  }
  return settled;
}

const ENDED = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED']);

/** An event that ends a task (after which its unfinished MCP calls are settled). */
export function endsTask(e: { type: string; payload: unknown }): boolean {
  if (e.type !== 'TASK_STATUS_CHANGED') return false;
  const to = (e.payload as { to?: unknown } | null)?.to;
  return typeof to === 'string' && ENDED.has(to);
}
