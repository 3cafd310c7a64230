// A transaction that changes state and appends the events describing it, atomically. Events are
// buffered while the body runs and appended at its end, one statement per task in task-id order
// (append.ts); after commit the notifier has them sequenced and wakes listeners. This is the one
// notify rule for every feed: a transaction that advances another feed (object changes) reports it
// through `emit.advanced`, and is notified after commit in the same way, coalesced with the rest.
import type { Tx } from '../db/client.ts';
import type { PrismaClient } from '../db/client.ts';
import { appendEvents } from './append.ts';
import type { EventNotifier, FeedChannel } from './notifier.ts';
import type { AppendedEvent, NewEvent } from './types.ts';

/** Appends `event` to the task's log at the end of the transaction. */
export type Emit = ((taskId: string, event: NewEvent) => void) & {
  /**
   * The transaction moved `channel`'s feed of `key` (a workspace) to `position`, under the feed
   * head's row lock: its listeners are woken after commit, never by a NOTIFY inside the transaction.
   */
  advanced(channel: FeedChannel, key: string, position: number): void;
};
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
export async function appendNow(deps: UowDeps, taskId: string, events: NewEvent[]): Promise<AppendedEvent[]> {
  const rows = await appendEvents(deps.prisma, taskId, events);
  const last = rows.at(-1);
  if (last) deps.notifier.appended(last.workspaceId);
  deps.notifier.eventsCommitted(rows);
  return rows;
}

type Heads = Map<FeedChannel, Map<string, number>>;

function raise(heads: Heads, channel: FeedChannel, key: string, position: number): void {
  let keys = heads.get(channel);
  if (!keys) heads.set(channel, (keys = new Map()));
  keys.set(key, Math.max(keys.get(key) ?? 0, position));
}

export async function transactWithEvents<T>(
  deps: UowDeps,
  body: (tx: Tx, emit: Emit) => Promise<T>,
): Promise<{ value: T; events: AppendedEvent[] }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const out = await deps.prisma.$transaction(
        async (tx) => {
          const pending = new Map<string, NewEvent[]>();
          const advanced: Heads = new Map();
          const emit: Emit = Object.assign(
            (taskId: string, event: NewEvent) => {
              const list = pending.get(taskId);
              if (list) list.push(event);
              else pending.set(taskId, [event]);
            },
            { advanced: (channel: FeedChannel, key: string, position: number) => raise(advanced, channel, key, position) },
          );
          const value = await body(tx, emit);
          const events: AppendedEvent[] = [];
          // Task rows are locked in id order whatever order the body emitted in, so two
          // transactions appending to the same tasks never wait for each other in a cycle.
          for (const taskId of [...pending.keys()].sort()) {
            events.push(...(await appendEvents(tx, taskId, pending.get(taskId)!)));
          }
          return { value, events, advanced };
        },
        { maxWait: 10_000, timeout: 30_000 },
      );
      // Committed: now, and only now, wake listeners (one wake-up per feed and workspace).
      for (const [channel, keys] of out.advanced) for (const [key, position] of keys) deps.notifier.committed(channel, key, position);
      for (const ws of new Set(out.events.map((e) => e.workspaceId))) deps.notifier.appended(ws);
      deps.notifier.eventsCommitted(out.events);
      return { value: out.value, events: out.events };
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
export function withAppendedSeq<T extends { id: string; lastEventSeq: number }>(task: T, events: AppendedEvent[]): T {
  let last = task.lastEventSeq;
  for (const e of events) if (e.taskId === task.id && e.seq > last) last = e.seq;
  return { ...task, lastEventSeq: last };
}
