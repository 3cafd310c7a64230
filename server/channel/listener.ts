// The process's one LISTEN connection, shared by every live feed (task and workspace events, object
// changes): each feed registers the NOTIFY channel it listens on and gets that channel's wake-ups.
// The listener also owns the process's one reconnect loop and its one safety poll, so every feed
// recovers the same way.
//
// A wake-up is only a hint ("key K reached position P"); feeds read content from the database by
// position. So a notification lost while the connection is down, coalesced with others, or never
// sent (the writer died between commit and notify) costs latency, never an event: after a
// reconnect every feed re-reads every key in use, and the safety poll re-reads heads regardless.
import pg from 'pg';
import type { Logger } from '../log.ts';
import { parseNotification } from './notifier.ts';

/** What a feed hands the listener: how to wake one key, every key, and how to check its heads. */
export type WakeTarget = {
  /** `key` reached `position` (a notification from any process, or a commit in this one). */
  wake(key: string, position: number): void;
  /** Anything may have moved (notifications were lost): re-read every key in use. */
  wakeAll(): void;
  /** The safety poll: read the heads of the keys in use and wake those that moved. */
  poll(): Promise<void>;
};

/**
 * A channel whose payload is not a feed position but a plain signal (pg-boss's job notifications:
 * the queue's name). `signalAll` follows a reconnect, when signals may have been missed.
 */
export type SignalTarget = { signal(payload: string): void; signalAll(): void };

export type ListenerOptions = {
  connectionString: string;
  log: Logger;
  /** Safety poll interval, ms. */
  pollMs: number;
  /** Reconnect delays: the first one and the cap, ms (jittered, doubling in between). */
  backoff?: { baseMs: number; capMs: number };
};

/** The application_name of the listener's backend, so it can be told apart in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'atelier-listener';

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The delay before reconnect attempt `attempt` (0-based): doubling from `baseMs`, capped at
 * `capMs`, and drawn from the upper half of that so processes that lost the database together do
 * not come back in lockstep, while none retries sooner than half its step.
 */
export function backoffDelay(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const step = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(step / 2 + (random() * step) / 2);
}

export class FeedListener {
  private readonly targets = new Map<string, WakeTarget>();
  /** Further consumers of a feed channel's wake-ups that are not feeds themselves (observe). */
  private readonly observers = new Map<string, Set<WakeTarget>>();
  private readonly signals = new Map<string, SignalTarget>();
  private client: pg.Client | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private polling = false;
  private attempt = 0;
  private started = false;
  private stopped = false;
  private readonly backoff: { baseMs: number; capMs: number };
  /** Counters for tests and benchmarks. `connections` counts successful connects, the first included. */
  readonly stats = { connections: 0, reconnects: 0, polls: 0, notifications: {} as Record<string, number> };

  constructor(private readonly opts: ListenerOptions) {
    this.backoff = opts.backoff ?? { baseMs: 100, capMs: 5000 };
  }

  /** Routes `channel`'s wake-ups to `target`. Every feed registers before `start`. */
  register(channel: string, target: WakeTarget): void {
    if (this.started) throw new Error(`feed channel ${channel} registered after the listener started`);
    if (!CHANNEL_NAME.test(channel)) throw new Error(`not a channel name: ${channel}`);
    if (this.targets.has(channel)) throw new Error(`feed channel ${channel} registered twice`);
    this.targets.set(channel, target);
    this.stats.notifications[channel] = 0;
  }

  /**
   * Also hands a registered feed channel's wake-ups to `target` (the webhook dispatcher follows the
   * event log this way): its notifications, this process's commits, the re-read after a reconnect
   * and the safety poll. May be added and removed at any time, since the channel is already
   * LISTENed. Returns the removal.
   */
  observe(channel: string, target: WakeTarget): () => void {
    if (!this.targets.has(channel)) throw new Error(`feed channel ${channel} is not registered`);
    let set = this.observers.get(channel);
    if (!set) this.observers.set(channel, (set = new Set()));
    set.add(target);
    return () => void set.delete(target);
  }

  /** Routes `channel`'s notifications, as they are, to `target` (registered before `start`). */
  registerSignal(channel: string, target: SignalTarget): void {
    if (this.started) throw new Error(`signal channel ${channel} registered after the listener started`);
    if (!CHANNEL_NAME.test(channel)) throw new Error(`not a channel name: ${channel}`);
    if (this.targets.has(channel) || this.signals.has(channel)) throw new Error(`channel ${channel} registered twice`);
    this.signals.set(channel, target);
    this.stats.notifications[channel] = 0;
  }

  /** A commit in this process wakes its feed at once, without the round trip through PostgreSQL. */
  local(channel: string, key: string, position: number): void {
    this.targets.get(channel)?.wake(key, position);
    for (const o of this.observers.get(channel) ?? []) o.wake(key, position);
  }

  /** Connects (and fails when the database cannot be reached), then keeps the connection up. */
  async start(): Promise<void> {
    this.started = true;
    await this.connect();
    this.pollTimer = setInterval(() => void this.poll(), this.opts.pollMs);
    this.pollTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => {});
  }

  /** The listening backend's process id, while connected. */
  get backendPid(): number | undefined {
    return (this.client as unknown as { processID?: number } | undefined)?.processID;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.opts.connectionString,
      application_name: LISTENER_APPLICATION_NAME,
      // A half-open TCP connection would otherwise look alive forever and never reconnect.
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    client.on('notification', (m) => this.dispatch(m.channel, m.payload));
    client.on('error', (e) => this.lost(client, e));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      // One LISTEN per channel, in one round trip; names are checked in register().
      await client.query([...this.targets.keys(), ...this.signals.keys()].map((c) => `LISTEN ${c}`).join('; '));
    } catch (e) {
      client.end().catch(() => {});
      throw e;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.stats.connections++;
  }

  private dispatch(channel: string, payload: string | undefined): void {
    const signal = this.signals.get(channel);
    if (signal) {
      this.stats.notifications[channel] = (this.stats.notifications[channel] ?? 0) + 1;
      if (payload) signal.signal(payload);
      return;
    }
    const target = this.targets.get(channel);
    if (!target) return;
    this.stats.notifications[channel] = (this.stats.notifications[channel] ?? 0) + 1;
    const observers = this.observers.get(channel);
    for (const [key, position] of parseNotification(payload)) {
      target.wake(key, position);
      for (const o of observers ?? []) o.wake(key, position);
    }
  }

  private lost(client: pg.Client, err?: Error): void {
    if (this.client !== client || this.stopped) return;
    this.client = undefined;
    this.opts.log.warn('feed listener connection lost; reconnecting', { error: err?.message });
    client.end().catch(() => {});
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const delay = backoffDelay(this.attempt++, this.backoff.baseMs, this.backoff.capMs);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.stopped) return;
      this.connect().then(
        () => {
          if (this.stopped) return;
          this.attempt = 0;
          this.stats.reconnects++;
          // Whatever was notified while no connection listened is lost: LISTEN is in place again,
          // so one re-read of every key in use now misses nothing.
          for (const t of this.targets.values()) t.wakeAll();
          for (const set of this.observers.values()) for (const o of set) o.wakeAll();
          for (const s of this.signals.values()) s.signalAll();
        },
        (e) => {
          this.opts.log.warn('feed listener reconnect failed; retrying', { error: (e as Error).message });
          if (!this.stopped) this.scheduleReconnect();
        },
      );
    }, delay);
    this.reconnectTimer.unref();
  }

  private async poll(): Promise<void> {
    // A poll slower than the interval must not pile up behind itself.
    if (this.polling || this.stopped) return;
    this.polling = true;
    this.stats.polls++;
    try {
      for (const t of [...this.targets.values(), ...[...this.observers.values()].flatMap((set) => [...set])]) {
        await t.poll().catch((e) => this.opts.log.warn('feed safety poll failed', { error: (e as Error).message }));
      }
    } finally {
      this.polling = false;
    }
  }
}
