// Wakes feed listeners after commit, for every feed (the event log, object changes). NOTIFY inside
// a writing transaction would serialise all commits on PostgreSQL's global notify lock, so instead
// each process coalesces, per channel, the keys (workspaces) its commits advanced and sends them in
// one statement per flush, outside any transaction. A burst of commits therefore costs a few
// notifications, not one each: while a flush is in flight the next one gathers everything
// committed meanwhile.
// Event appends are not positioned yet when they commit (sequencer.ts): `appended` gathers their
// workspaces, and the flush sequences them in one statement that also notifies (from inside the
// sequencer, only for workspaces it moved). Object changes come with their position (`committed`).
// A notification is only a hint ("workspace W has reached position P"); content is always read from
// the database. If a process dies between commit and notify (or sequencing), listeners catch up on
// their safety poll, which sequences before it reads.
import type { PrismaClient } from '../db/client.ts';
import type { Logger } from '../log.ts';
import { sequenceEvents } from './sequencer.ts';
import type { AppendedEvent } from './types.ts';

/** The event log's channel: task events by workspace position. */
export const EVENTS_CHANNEL = 'atelier_events';
/** The object change feed's channel: object_changes by workspace position. */
export const OBJECTS_CHANNEL = 'atelier_objects';
export type FeedChannel = typeof EVENTS_CHANNEL | typeof OBJECTS_CHANNEL;

const MAX_PAYLOAD = 7900; // PostgreSQL's NOTIFY payload limit is 8000 bytes

export type LocalWake = (channel: FeedChannel, key: string, position: number) => void;
/** Events this process has just committed, for reactions in the same process (never inside the transaction). */
export type CommittedEvents = (events: readonly AppendedEvent[]) => void;

export class EventNotifier {
  private pending = new Map<FeedChannel, Map<string, number>>();
  /** Workspaces with committed, not yet sequenced appends of this process. */
  private appendedTo = new Set<string>();
  private scheduled = false;
  private flushing: Promise<void> = Promise.resolve();
  private readonly localListeners = new Set<LocalWake>();
  private readonly eventListeners = new Set<CommittedEvents>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly log: Logger,
  ) {}

  /** In-process listeners (this process's feeds) are woken directly, without a round trip. */
  onLocal(fn: LocalWake): () => void {
    this.localListeners.add(fn);
    return () => this.localListeners.delete(fn);
  }

  /**
   * Reacts to the events this process commits (cancelling jobs upstream when their task is cancelled,
   * say). Only this process's commits: a reaction that must happen whatever process committed has
   * a sweep behind it (reconciliation), this only makes it immediate.
   */
  onEvents(fn: CommittedEvents): () => void {
    this.eventListeners.add(fn);
    return () => this.eventListeners.delete(fn);
  }

  /** Call with the events of a transaction once it has committed. A listener's failure is logged, never thrown. */
  eventsCommitted(events: readonly AppendedEvent[]): void {
    if (!events.length) return;
    for (const fn of this.eventListeners) {
      try {
        fn(events);
      } catch (e) {
        this.log.warn('a reaction to committed events failed', { error: (e as Error).message });
      }
    }
  }

  /**
   * Call after the transaction that advanced `channel`'s feed of `key` up to `position` has
   * committed — never before: a listener woken early would read before the rows are visible, and
   * take nothing until the next wake-up.
   */
  committed(channel: FeedChannel, key: string, position: number): void {
    for (const fn of this.localListeners) fn(channel, key, position);
    let keys = this.pending.get(channel);
    if (!keys) this.pending.set(channel, (keys = new Map()));
    const prev = keys.get(key);
    if (prev === undefined || position > prev) keys.set(key, position);
    this.schedule();
  }

  /**
   * Call after a transaction that appended events to `workspaceId` has committed: the next flush
   * sequences them (with whatever else this process appended meanwhile), then wakes listeners.
   */
  appended(workspaceId: string): void {
    this.appendedTo.add(workspaceId);
    this.schedule();
  }

  private schedule(): void {
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flushing = this.flushing.then(() => this.flush());
      });
    }
  }

  /** Resolves when everything handed to `committed` so far has been sent. */
  async drain(): Promise<void> {
    while (this.scheduled || this.pending.size > 0 || this.appendedTo.size > 0) {
      await new Promise((r) => setImmediate(r));
      await this.flushing;
    }
    await this.flushing;
  }

  private async flush(): Promise<void> {
    if (this.appendedTo.size > 0) {
      const workspaces = [...this.appendedTo].sort();
      this.appendedTo = new Set();
      try {
        const heads = await sequenceEvents(this.prisma, workspaces);
        for (const [key, position] of heads) for (const fn of this.localListeners) fn(EVENTS_CHANNEL, key, position);
      } catch (e) {
        // Not fatal: the next reader's head read (or a listener's safety poll) sequences them.
        this.log.warn('event sequencing failed', { error: (e as Error).message });
      }
    }
    if (this.pending.size === 0) return;
    const pending = this.pending;
    this.pending = new Map();
    const params: string[] = [];
    for (const [channel, keys] of pending) {
      for (const payload of chunk([...keys].map(([k, p]) => `${k}:${p}`))) params.push(channel, payload);
    }
    // Every channel's notifications in one round trip.
    const calls = Array.from({ length: params.length / 2 }, (_, i) => `pg_notify($${2 * i + 1}, $${2 * i + 2})`);
    try {
      await this.prisma.$executeRawUnsafe(`SELECT ${calls.join(', ')}`, ...params);
    } catch (e) {
      // Not fatal: listeners' safety poll will pick the rows up.
      this.log.warn('feed notify failed', { error: (e as Error).message });
    }
  }
}

/** Comma-separated `key:position` items, split to fit NOTIFY's payload limit. */
function chunk(items: string[]): string[] {
  const chunks: string[] = [];
  let cur = '';
  for (const item of items) {
    if (cur && cur.length + item.length + 1 > MAX_PAYLOAD) {
      chunks.push(cur);
      cur = '';
    }
    cur = cur ? `${cur},${item}` : item;
  }
  if (cur) chunks.push(cur);
  return chunks;
}

export function parseNotification(payload: string | undefined): [string, number][] {
  if (!payload) return [];
  const out: [string, number][] = [];
  for (const item of payload.split(',')) {
    const i = item.lastIndexOf(':');
    if (i <= 0) continue;
    const pos = Number(item.slice(i + 1));
    if (Number.isSafeInteger(pos)) out.push([item.slice(0, i), pos]);
  }
  return out;
}
