// The event hub: one per process. It turns the append-only log into ordered, resumable streams.
//
// Design (see append.ts for the invariants it relies on):
//  - One Topic per workspace with live subscribers. A topic holds `head` (the highest position it
//    has read) and a ring of the most recent events, contiguous by position. Wake-ups (LISTEN/NOTIFY
//    from any process, a direct call from this process's notifier, or the safety poll) make the
//    topic read `position > head` from the database once, for all of its subscribers.
//  - Because committed positions form a gap-free prefix, "position > head" never misses an event,
//    and a subscriber whose cursor falls outside the ring (new, slow, or reconnecting far behind)
//    simply reads from the database until it reaches the ring. Content always comes from the
//    database; the ring is a shared read cache, never a second source of truth.
//  - Replay→live handoff: a subscriber attaches to its topic *before* its replay read and notes
//    the topic head then; everything after that head is in the ring, everything up to it is in
//    the database, and overlaps are dropped by cursor. So there is no gap and no duplicate.
import pg from 'pg';
import type { PrismaClient } from '../db/client.ts';
import type { Logger } from '../log.ts';
import { EVENTS_CHANNEL, parseNotification } from './notifier.ts';
import type { EventRow } from './types.ts';

export type HubOptions = {
  prisma: PrismaClient;
  /** Connection string for the dedicated LISTEN connection. */
  connectionString: string;
  log: Logger;
  /** Safety poll interval, ms. */
  pollMs: number;
  /** Events kept per topic ring. */
  ringSize?: number;
  /** How long an unused topic (and its ring) is kept for reconnecting clients, ms. */
  idleTopicMs?: number;
  /** Rows per database read. */
  pageSize?: number;
};

export class SubscriptionClosed extends Error {
  constructor() {
    super('subscription closed');
    this.name = 'SubscriptionClosed';
  }
}

const EVENT_SELECT = {
  id: true,
  taskId: true,
  workspaceId: true,
  seq: true,
  position: true,
  type: true,
  actorKind: true,
  actorId: true,
  occurredAt: true,
  redaction: true,
  payload: true,
  payloadHash: true,
  payloadSize: true,
  payloadSchema: true,
} as const;

type DbEvent = Omit<EventRow, 'position'> & { position: bigint };
/** A database event row as the channel's EventRow (positions fit a JS number). */
export const toRow = (e: DbEvent): EventRow => ({ ...e, position: Number(e.position) });

class Topic {
  head = 0;
  /** ring[i].position === ringStart + i */
  ring: EventRow[] = [];
  ringStart = 1;
  refs = 0;
  ready: Promise<void>;
  idleTimer: NodeJS.Timeout | undefined;
  private advanced: { promise: Promise<void>; resolve: () => void } | undefined;
  private fetching: Promise<void> | undefined;
  private again = false;

  constructor(
    readonly workspaceId: string,
    private readonly hub: EventHub,
  ) {
    this.ready = hub.readHead(workspaceId).then((h) => {
      this.head = h;
      this.ringStart = h + 1;
    });
  }

  /** Resolves at the next head advance (or when `signal` aborts). */
  nextAdvance(signal: AbortSignal): Promise<void> {
    if (!this.advanced) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.advanced = { promise, resolve };
    }
    const p = this.advanced.promise;
    if (signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const onAbort = () => resolve();
      signal.addEventListener('abort', onAbort, { once: true });
      void p.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  /** The event at `position` if the ring holds it. */
  at(position: number): EventRow | undefined {
    return this.ring[position - this.ringStart];
  }

  /** Whether every event after `position` up to head is in the ring. */
  covers(position: number): boolean {
    return position + 1 >= this.ringStart;
  }

  wake(position?: number): void {
    if (position !== undefined && position <= this.head) return;
    if (this.fetching) {
      this.again = true;
      return;
    }
    this.fetching = this.fetch().finally(() => {
      this.fetching = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private async fetch(): Promise<void> {
    await this.ready;
    try {
      for (;;) {
        const rows = await this.hub.readWorkspace(this.workspaceId, this.head, this.hub.pageSize);
        if (rows.length === 0) break;
        for (const r of rows) {
          if (r.position !== this.head + 1) {
            // Cannot happen while append.ts's invariant holds; restart the ring rather than serve a gap.
            this.hub.log.error('event position gap in topic read', {
              workspaceId: this.workspaceId,
              expected: this.head + 1,
              got: r.position,
            });
            this.ring = [];
            this.ringStart = r.position;
          }
          this.ring.push(r);
          this.head = r.position;
        }
        const excess = this.ring.length - this.hub.ringSize;
        if (excess > this.hub.ringSize / 4) {
          this.ring.splice(0, excess);
          this.ringStart += excess;
        }
        this.signalAdvance();
        if (rows.length < this.hub.pageSize) break;
      }
    } catch (e) {
      this.hub.log.warn('topic fetch failed; will retry on next wake or poll', {
        workspaceId: this.workspaceId,
        error: (e as Error).message,
      });
    }
  }

  private signalAdvance() {
    const a = this.advanced;
    this.advanced = undefined;
    a?.resolve();
  }

  closeAll() {
    this.signalAdvance();
  }
}

export class EventHub {
  readonly log: Logger;
  readonly ringSize: number;
  readonly pageSize: number;
  private readonly topics = new Map<string, Topic>();
  private readonly prisma: PrismaClient;
  private listener: pg.Client | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private reconnectDelay = 100;
  /** Counters for tests and benchmarks. */
  readonly stats = { topicReads: 0, replayReads: 0, notifications: 0, polls: 0, openStreams: 0 };

  constructor(private readonly opts: HubOptions) {
    this.prisma = opts.prisma;
    this.log = opts.log;
    this.ringSize = opts.ringSize ?? 2048;
    this.pageSize = opts.pageSize ?? 500;
  }

  async start(): Promise<void> {
    await this.connectListener();
    this.pollTimer = setInterval(() => void this.poll(), this.opts.pollMs);
    this.pollTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    for (const t of this.topics.values()) {
      if (t.idleTimer) clearTimeout(t.idleTimer);
      t.closeAll();
    }
    this.topics.clear();
    const l = this.listener;
    this.listener = undefined;
    await l?.end().catch(() => {});
  }

  /** Wake a workspace's topic (used by this process's notifier, and by NOTIFY). */
  wake(workspaceId: string, position?: number): void {
    this.topics.get(workspaceId)?.wake(position);
  }

  private async connectListener(): Promise<void> {
    const client = new pg.Client({ connectionString: this.opts.connectionString });
    client.on('notification', (msg) => {
      if (msg.channel !== EVENTS_CHANNEL) return;
      this.stats.notifications++;
      for (const [w, p] of parseNotification(msg.payload)) this.wake(w, p);
    });
    const onLost = (err?: Error) => {
      if (this.listener !== client || this.stopped) return;
      this.listener = undefined;
      this.log.warn('event listener connection lost; reconnecting', { error: err?.message });
      client.end().catch(() => {});
      const delay = this.reconnectDelay;
      this.reconnectDelay = Math.min(delay * 2, 5000);
      setTimeout(() => {
        if (this.stopped) return;
        this.connectListener().then(
          () => {
            this.reconnectDelay = 100;
            // Notifications sent while we were away are lost: re-read every topic.
            for (const t of this.topics.values()) t.wake();
          },
          () => onLost(),
        );
      }, delay).unref();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    await client.connect();
    await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    this.listener = client;
  }

  private async poll(): Promise<void> {
    if (this.topics.size === 0) return;
    this.stats.polls++;
    try {
      const heads = await this.prisma.workspace.findMany({
        where: { id: { in: [...this.topics.keys()] } },
        select: { id: true, eventPosition: true },
      });
      for (const h of heads) this.wake(h.id, Number(h.eventPosition));
    } catch (e) {
      this.log.warn('event safety poll failed', { error: (e as Error).message });
    }
  }

  async readHead(workspaceId: string): Promise<number> {
    const w = await this.prisma.workspace.findUnique({ where: { id: workspaceId }, select: { eventPosition: true } });
    return w ? Number(w.eventPosition) : 0;
  }

  async readWorkspace(workspaceId: string, afterPosition: number, limit: number): Promise<EventRow[]> {
    this.stats.topicReads++;
    const rows = await this.prisma.taskEvent.findMany({
      where: { workspaceId, position: { gt: BigInt(afterPosition) } },
      orderBy: { position: 'asc' },
      take: limit,
      select: EVENT_SELECT,
    });
    return rows.map(toRow);
  }

  private async readTask(taskId: string, afterSeq: number, limit: number): Promise<EventRow[]> {
    this.stats.replayReads++;
    const rows = await this.prisma.taskEvent.findMany({
      where: { taskId, seq: { gt: afterSeq } },
      orderBy: { seq: 'asc' },
      take: limit,
      select: EVENT_SELECT,
    });
    return rows.map(toRow);
  }

  private async acquire(workspaceId: string): Promise<Topic> {
    if (this.stopped) throw new SubscriptionClosed();
    let t = this.topics.get(workspaceId);
    if (!t) {
      t = new Topic(workspaceId, this);
      this.topics.set(workspaceId, t);
    }
    if (t.idleTimer) {
      clearTimeout(t.idleTimer);
      t.idleTimer = undefined;
    }
    t.refs++;
    this.stats.openStreams++;
    try {
      await t.ready;
    } catch (e) {
      this.release(t);
      if (this.topics.get(workspaceId) === t && t.refs === 0) this.topics.delete(workspaceId);
      throw e;
    }
    return t;
  }

  private release(t: Topic): void {
    t.refs--;
    this.stats.openStreams--;
    if (t.refs > 0 || this.stopped) return;
    t.idleTimer = setTimeout(() => {
      if (t.refs === 0 && this.topics.get(t.workspaceId) === t) this.topics.delete(t.workspaceId);
    }, this.opts.idleTopicMs ?? 30_000);
    t.idleTimer.unref();
  }

  /**
   * Every event of the workspace with position > `afterPosition`, in position order, then live
   * ones, until `signal` aborts. Never skips or repeats a position.
   */
  async *workspaceStream(workspaceId: string, afterPosition: number, signal: AbortSignal): AsyncGenerator<EventRow> {
    const topic = await this.acquire(workspaceId);
    try {
      let cursor = afterPosition;
      while (!signal.aborted) {
        if (!topic.covers(cursor)) {
          const rows = await this.readWorkspace(workspaceId, cursor, this.pageSize);
          for (const r of rows) {
            if (signal.aborted) return;
            yield r;
            cursor = r.position;
          }
          if (rows.length > 0) continue;
          // Nothing left in the database before the ring: those events were deleted with their
          // task. Skip to the ring.
          cursor = Math.max(cursor, topic.ringStart - 1);
        }
        let progressed = false;
        while (cursor < topic.head && topic.covers(cursor) && !signal.aborted) {
          const e = topic.at(cursor + 1)!;
          yield e;
          cursor = e.position;
          progressed = true;
        }
        if (!progressed && topic.covers(cursor) && cursor >= topic.head) await topic.nextAdvance(signal);
      }
    } finally {
      this.release(topic);
    }
  }

  /**
   * Every event of the task with seq > `afterSeq`, in seq order, then live ones, until `signal`
   * aborts. Never skips or repeats a seq.
   */
  async *taskStream(taskId: string, workspaceId: string, afterSeq: number, signal: AbortSignal): AsyncGenerator<EventRow> {
    const topic = await this.acquire(workspaceId);
    try {
      let cursor = afterSeq;
      // Position up to which the ring has been scanned for this task. Taken before the replay read,
      // so anything committed after that read is found in the ring (see header comment).
      let scanned = topic.head;
      replay: while (!signal.aborted) {
        const rows = await this.readTask(taskId, cursor, this.pageSize);
        for (const r of rows) {
          if (signal.aborted) return;
          yield r;
          cursor = r.seq;
        }
        if (rows.length === this.pageSize) {
          scanned = Math.max(scanned, rows[rows.length - 1]!.position);
          continue;
        }
        while (!signal.aborted) {
          if (!topic.covers(scanned)) {
            scanned = topic.head;
            continue replay;
          }
          let progressed = false;
          while (scanned < topic.head && !signal.aborted) {
            const e = topic.at(scanned + 1);
            if (!e) {
              scanned = topic.head;
              continue replay;
            }
            scanned = e.position;
            progressed = true;
            if (e.taskId !== taskId || e.seq <= cursor) continue;
            if (e.seq !== cursor + 1) {
              this.log.error('task seq gap in ring; re-reading from database', { taskId, cursor, got: e.seq });
              continue replay;
            }
            yield e;
            cursor = e.seq;
          }
          if (!progressed) await topic.nextAdvance(signal);
        }
      }
    } finally {
      this.release(topic);
    }
  }
}

/**
 * Wraps a stream factory so that the consumer's `return()` (unsubscribe, socket closed) takes
 * effect at once, even while the stream is waiting for the next event. A plain async generator
 * would queue `return()` behind its pending `await`. Yoga's SSE stream only calls `return()` after
 * its pending read settles, so an SSE request's abort signal also ends the stream.
 */
export function closableStream<T>(
  make: (signal: AbortSignal) => AsyncGenerator<T>,
  /** The transport's own "client went away" signal (an SSE request's), when it has one. */
  external?: AbortSignal,
): AsyncIterableIterator<T> {
  const ac = new AbortController();
  if (external) {
    if (external.aborted) ac.abort();
    else external.addEventListener('abort', () => ac.abort(), { once: true });
  }
  const inner = make(ac.signal);
  const it: AsyncIterableIterator<T> = {
    next: () => inner.next(),
    return: async (value?: unknown) => {
      ac.abort();
      await inner.return(undefined as never).catch(() => {});
      return { done: true, value: value as T };
    },
    throw: async (err?: unknown) => {
      ac.abort();
      return inner.throw(err);
    },
    [Symbol.asyncIterator]() {
      return it;
    },
  };
  return it;
}
