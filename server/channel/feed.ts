// The generic ordered feed: turns an append-only table into ordered, resumable streams. Task events
// and workspace events (event-feed.ts) and object changes (object-feed.ts) are each one of these.
//
// What a source must guarantee (append.ts, store/objects/store.ts): rows are partitioned by a key
// (a workspace), each with a position that is gap-free per key and committed in position order —
// the writer bumps the key's head under a row lock held to commit. So a reader that has seen
// position k has seen everything up to k, and the next read of `position > k` misses nothing.
//
// How it reads:
//  - One Topic per key with live subscribers. A topic holds `head` (the highest position it has
//    read) and a ring of the most recent rows, contiguous by position. Wake-ups (a notification, a
//    commit in this process, a reconnect, the safety poll — all through listener.ts) make the topic
//    read `position > head` once, for all of its subscribers.
//  - A subscriber whose cursor falls outside the ring (new, slow, or reconnecting far behind)
//    reads from the database until it reaches the ring. Content always comes from the database; the
//    ring is a shared read cache, never a second source of truth.
//  - Replay→live handoff: a subscriber attaches to its topic *before* its replay read and notes the
//    topic head then; everything after that head is in the ring, everything up to it is in the
//    database, and overlaps are dropped by cursor. So there is no gap and no duplicate.
import type { Logger } from '../log.ts';
import type { WakeTarget } from './listener.ts';

export type FeedSource<Row> = {
  /** For logs. */
  name: string;
  /** The committed head of each key (a key with no rows is absent or 0). */
  heads(keys: readonly string[]): Promise<Map<string, number>>;
  /** Rows of `key` with position > `after`, ascending, at most `limit`. */
  read(key: string, after: number, limit: number): Promise<Row[]>;
  position(row: Row): number;
};

export type FeedOptions = {
  log: Logger;
  /** Rows kept per topic ring. */
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

export class Topic<Row> {
  head = 0;
  /** Invariant: position(ring[i]) === ringStart + i. */
  ring: Row[] = [];
  ringStart = 1;
  refs = 0;
  readonly ready: Promise<void>;
  idleTimer: NodeJS.Timeout | undefined;
  private advanced: { promise: Promise<void>; resolve: () => void } | undefined;
  private fetching: Promise<void> | undefined;
  private again = false;

  constructor(
    readonly key: string,
    private readonly feed: OrderedFeed<Row>,
  ) {
    this.ready = feed.head(key).then((h) => {
      this.head = h;
      this.ringStart = h + 1;
    });
  }

  /** Resolves at the next head advance (or when `signal` aborts, or the feed stops). */
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

  /** The row at `position` if the ring holds it. */
  at(position: number): Row | undefined {
    return this.ring[position - this.ringStart];
  }

  /** Whether every row after `position` up to head is in the ring. */
  covers(position: number): boolean {
    return position + 1 >= this.ringStart;
  }

  wake(position?: number): void {
    if (position !== undefined && position <= this.head) return;
    if (this.fetching) {
      // A read is under way and may have started before this commit: read once more after it.
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
    const feed = this.feed;
    try {
      await this.ready;
      for (;;) {
        feed.stats.topicReads++;
        const rows = await feed.source.read(this.key, this.head, feed.pageSize);
        if (rows.length === 0) break;
        for (const r of rows) {
          const p = feed.source.position(r);
          if (p !== this.head + 1) {
            // Cannot happen while the source's invariant holds; restart the ring rather than serve a gap.
            feed.log.error('feed position gap in topic read', { feed: feed.source.name, key: this.key, expected: this.head + 1, got: p });
            this.ring = [];
            this.ringStart = p;
          }
          this.ring.push(r);
          this.head = p;
        }
        const excess = this.ring.length - feed.ringSize;
        if (excess > feed.ringSize / 4) {
          this.ring.splice(0, excess);
          this.ringStart += excess;
        }
        this.signalAdvance();
        if (rows.length < feed.pageSize) break;
      }
    } catch (e) {
      feed.log.warn('feed topic read failed; will retry on the next wake-up or poll', { feed: feed.source.name, key: this.key, error: (e as Error).message });
    }
  }

  signalAdvance(): void {
    const a = this.advanced;
    this.advanced = undefined;
    a?.resolve();
  }
}

export class OrderedFeed<Row> implements WakeTarget {
  readonly log: Logger;
  readonly ringSize: number;
  readonly pageSize: number;
  private readonly topics = new Map<string, Topic<Row>>();
  private stopped = false;
  /** Counters for tests and benchmarks. */
  readonly stats = { topicReads: 0, replayReads: 0, openStreams: 0 };

  constructor(
    readonly source: FeedSource<Row>,
    private readonly opts: FeedOptions,
  ) {
    this.log = opts.log;
    this.ringSize = opts.ringSize ?? 2048;
    this.pageSize = opts.pageSize ?? 500;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Ends every stream (each returns at its next wait) and drops the topics. */
  stop(): void {
    this.stopped = true;
    for (const t of this.topics.values()) {
      if (t.idleTimer) clearTimeout(t.idleTimer);
      t.signalAdvance();
    }
    this.topics.clear();
  }

  wake(key: string, position?: number): void {
    this.topics.get(key)?.wake(position);
  }

  wakeAll(): void {
    for (const t of this.topics.values()) t.wake();
  }

  async poll(): Promise<void> {
    if (this.topics.size === 0) return;
    const heads = await this.source.heads([...this.topics.keys()]);
    for (const [key, position] of heads) this.wake(key, position);
  }

  /** The committed head of `key`: where a stream that starts "now" starts after. */
  async head(key: string): Promise<number> {
    return (await this.source.heads([key])).get(key) ?? 0;
  }

  /** A subscriber's own database read (replay, or catching up to the ring). */
  read(key: string, after: number, limit = this.pageSize): Promise<Row[]> {
    this.stats.replayReads++;
    return this.source.read(key, after, limit);
  }

  /** Attaches to `key`'s topic; pair with `release`. */
  async acquire(key: string): Promise<Topic<Row>> {
    if (this.stopped) throw new SubscriptionClosed();
    let t = this.topics.get(key);
    if (!t) {
      t = new Topic(key, this);
      this.topics.set(key, t);
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
      if (this.topics.get(key) === t && t.refs === 0) this.topics.delete(key);
      throw e;
    }
    return t;
  }

  release(t: Topic<Row>): void {
    t.refs--;
    this.stats.openStreams--;
    if (t.refs > 0 || this.stopped) return;
    t.idleTimer = setTimeout(() => {
      if (t.refs === 0 && this.topics.get(t.key) === t) this.topics.delete(t.key);
    }, this.opts.idleTopicMs ?? 30_000);
    t.idleTimer.unref();
  }

  /**
   * Every row of `key` with position > `after`, in position order, then live ones, until `signal`
   * aborts or the feed stops. Never skips or repeats a position.
   */
  async *stream(key: string, after: number, signal: AbortSignal): AsyncGenerator<Row> {
    const topic = await this.acquire(key);
    try {
      let cursor = after;
      while (!signal.aborted && !this.stopped) {
        if (!topic.covers(cursor)) {
          const rows = await this.read(key, cursor);
          for (const r of rows) {
            if (signal.aborted) return;
            yield r;
            cursor = this.source.position(r);
          }
          if (rows.length > 0) continue;
          // Nothing left in the database before the ring: those rows were deleted (events go with
          // their task). Skip to the ring.
          cursor = Math.max(cursor, topic.ringStart - 1);
        }
        let progressed = false;
        while (cursor < topic.head && topic.covers(cursor) && !signal.aborted) {
          const r = topic.at(cursor + 1)!;
          yield r;
          cursor = this.source.position(r);
          progressed = true;
        }
        if (!progressed && topic.covers(cursor) && cursor >= topic.head) await topic.nextAdvance(signal);
      }
    } finally {
      this.release(topic);
    }
  }
}
