// A transaction that changes state and appends the events describing it, atomically. Events are
// buffered while the body runs and appended at its end (append.ts holds the workspace row lock
// until commit, so it goes last); after commit the notifier wakes listeners.
import type { Tx } from '../db/client.ts';
import type { PrismaClient } from '../db/client.ts';
import { appendEvents } from './append.ts';
import type { EventNotifier } from './notifier.ts';
import type { EventRow, NewEvent } from './types.ts';

export type Emit = (taskId: string, event: NewEvent) => void;
export type UowDeps = { prisma: PrismaClient; notifier: EventNotifier };

// PostgreSQL resolves a deadlock or serialization conflict by aborting one transaction: the body is
// re-run from the start (it holds no state outside the transaction), after a short jittered pause so
// the same contenders do not collide again at once.
const RETRYABLE = /deadlock detected|could not serialize access|P2034|TransactionWriteConflict/;
const MAX_ATTEMPTS = 6;

/**
 * Appends events that accompany no other state change (progress, notes) as one statement, without
 * an interactive transaction: one round trip instead of BEGIN/…/COMMIT.
 */
export async function appendNow(deps: UowDeps, taskId: string, events: NewEvent[]): Promise<EventRow[]> {
  const rows = await appendEvents(deps.prisma, taskId, events);
  const last = rows.at(-1);
  if (last) deps.notifier.committed(last.workspaceId, last.position);
  return rows;
}

export async function transactWithEvents<T>(
  deps: UowDeps,
  body: (tx: Tx, emit: Emit) => Promise<T>,
): Promise<{ value: T; events: EventRow[] }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const out = await deps.prisma.$transaction(
        async (tx) => {
          const pending = new Map<string, NewEvent[]>();
          const emit: Emit = (taskId, event) => {
            const list = pending.get(taskId);
            if (list) list.push(event);
            else pending.set(taskId, [event]);
          };
          const value = await body(tx, emit);
          const events: EventRow[] = [];
          let order = [...pending.keys()];
          if (order.length > 1) {
            // Lock order is always: task rows (by id), then workspace rows (by id). Appending task by
            // task would interleave (task A, workspace, task B) and deadlock against a writer
            // holding task B and waiting for the workspace row.
            const locked = await tx.$queryRawUnsafe<{ id: string; workspace_id: string }[]>(
              `SELECT id, workspace_id FROM tasks
                WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid) ORDER BY id FOR UPDATE`,
              JSON.stringify(order),
            );
            const ws = new Map(locked.map((r) => [r.id, r.workspace_id]));
            order = order.sort((a, b) => (ws.get(a) ?? '').localeCompare(ws.get(b) ?? '') || a.localeCompare(b));
          }
          for (const taskId of order) {
            events.push(...(await appendEvents(tx, taskId, pending.get(taskId)!)));
          }
          return { value, events };
        },
        { maxWait: 10_000, timeout: 30_000 },
      );
      const heads = new Map<string, number>();
      for (const e of out.events) heads.set(e.workspaceId, Math.max(heads.get(e.workspaceId) ?? 0, e.position));
      for (const [w, p] of heads) deps.notifier.committed(w, p);
      return out;
    } catch (e) {
      if (attempt < MAX_ATTEMPTS && RETRYABLE.test(String((e as Error)?.message ?? e))) {
        await new Promise((r) => setTimeout(r, Math.random() * 25 * attempt));
        continue;
      }
      throw e;
    }
  }
}

/** A task row read inside the transaction, with lastEventSeq advanced by the events it appended. */
export function withAppendedSeq<T extends { id: string; lastEventSeq: number }>(task: T, events: EventRow[]): T {
  let last = task.lastEventSeq;
  for (const e of events) if (e.taskId === task.id && e.seq > last) last = e.seq;
  return { ...task, lastEventSeq: last };
}
