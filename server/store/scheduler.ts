// pg-boss only wakes workers; PostgreSQL rows are the source of truth. A wake-up job is keyed by
// turn id + generation and is sent in the same transaction as the state change that needs it, so
// a committed turn always has its job (and a rolled-back one never does). A lost or failed job is
// found again by the watchdog from the turns table.
import { createHash } from 'node:crypto';
import { fromPrisma, PgBoss } from 'pg-boss';
import type { Db } from '../db/client.ts';
import type { Logger } from '../log.ts';

export const TURN_QUEUE = 'atelier-turn';
/**
 * Wake-ups of taken-over turns (a worker died holding them). Every worker keeps slots for this queue
 * alone, so recovering a run never waits behind new work.
 */
export const RECOVERY_QUEUE = 'atelier-turn-recovery';

export type QueueSettings = { expireInSeconds?: number; retryLimit?: number };

export type TurnJob = { turnId: string; generation: number };

/**
 * How a slot fetches: woken through `wake` when a wake-up is sent (within milliseconds, from any
 * process); the poll is only the backstop (the listener's connection dropped, or a burst left jobs
 * queued after the notifications that woke each slot). One job per fetch, so a busy slot never
 * holds a wake-up another slot could run.
 */
export const POLLING = { batchSize: 1, pollingIntervalSeconds: 0.5 } as const;

const SCHEMA = 'pgboss';

/**
 * The channel pg-boss NOTIFYs when a job lands on a `notify` queue (payload: the queue's name):
 * 'pgboss_' and the first 24 hex digits of sha224(schema), as pg-boss's plans.notifyChannelSql
 * computes it in SQL (test/wake-ups.test.ts checks both agree by listening for a real send).
 */
export const PGBOSS_NOTIFY_CHANNEL = `pgboss_${createHash('sha224').update(SCHEMA).digest('hex').slice(0, 24)}`;

export class Scheduler {
  readonly boss: PgBoss;
  private started = false;
  /** This process's pg-boss worker ids, by queue: a NOTIFY for a queue wakes them. */
  private readonly workerIds = new Map<string, Set<string>>();

  constructor(
    connectionString: string,
    private readonly log: Logger,
    private readonly settings: QueueSettings = {},
  ) {
    // No listener of pg-boss's own: the process's one LISTEN connection (channel/listener.ts)
    // hears the NOTIFY a send to a `notify` queue commits with and calls `wake` (app.ts).
    this.boss = new PgBoss({ connectionString, schema: SCHEMA, max: 4, application_name: 'atelier-scheduler' });
    this.boss.on('error', (e: Error) => this.log.warn('pg-boss error', { error: e.message }));
  }

  async start(): Promise<void> {
    if (this.started) return;
    await this.boss.start();
    // `short`: at most one queued job per singleton key, so re-sending a wake-up for the same
    // turn and generation is a no-op.
    const options = { policy: 'short' as const, notify: true, retryLimit: this.settings.retryLimit ?? 3, retryDelay: 1, expireInSeconds: this.settings.expireInSeconds ?? 15 * 60 };
    await this.boss.createQueue(TURN_QUEUE, options);
    await this.boss.createQueue(RECOVERY_QUEUE, options);
    // Settings changed since the queues were created take effect too.
    await this.boss.updateQueue(TURN_QUEUE, { notify: true, retryLimit: options.retryLimit, expireInSeconds: options.expireInSeconds }).catch(() => {});
    await this.boss.updateQueue(RECOVERY_QUEUE, { notify: true, retryLimit: options.retryLimit, expireInSeconds: options.expireInSeconds }).catch(() => {});
    this.started = true;
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: false, close: true, timeout: 2000 });
  }

  /**
   * Sends a wake-up for the turn inside the caller's transaction (or on its own with the client);
   * `recovery` for a turn whose worker died (served by the reserved slots first).
   */
  async enqueueTurn(db: Db, job: TurnJob, opts: { recovery?: boolean } = {}): Promise<void> {
    await this.boss.send(opts.recovery ? RECOVERY_QUEUE : TURN_QUEUE, job, {
      singletonKey: `${job.turnId}:${job.generation}`,
      db: fromPrisma(db as never),
    });
  }

  /** Stops fetching wake-ups (jobs not yet fetched stay queued for other workers). */
  async stopWorking(): Promise<void> {
    await this.boss.offWork(TURN_QUEUE);
    await this.boss.offWork(RECOVERY_QUEUE);
    this.workerIds.delete(TURN_QUEUE);
    this.workerIds.delete(RECOVERY_QUEUE);
  }

  /**
   * `concurrency` slots take new work; `concurrency + recoverySlots` slots of their own take
   * recovery wake-ups, so a taken-over turn starts at once even when every new-work slot is busy
   * (during a recovery burst a worker may run up to 2 × concurrency + recoverySlots turns).
   */
  async work(concurrency: number, handler: (job: TurnJob) => Promise<void>, recoverySlots = 0): Promise<void> {
    const run = async (jobs: { data: TurnJob }[]) => {
      for (const j of jobs) await handler(j.data);
    };
    for (let i = 0; i < concurrency + recoverySlots; i++) {
      this.track(RECOVERY_QUEUE, await this.boss.work<TurnJob>(RECOVERY_QUEUE, POLLING, run));
    }
    for (let i = 0; i < concurrency; i++) {
      this.track(TURN_QUEUE, await this.boss.work<TurnJob>(TURN_QUEUE, POLLING, run));
    }
  }

  /** Records a pg-boss worker of this process, so a NOTIFY for its queue wakes it. */
  track(queue: string, workerId: string): void {
    let ids = this.workerIds.get(queue);
    if (!ids) this.workerIds.set(queue, (ids = new Set()));
    ids.add(workerId);
  }

  /** A job landed on `queue` (a NOTIFY from any process): its idle workers here fetch now. */
  wake(queue: string): void {
    for (const id of this.workerIds.get(queue) ?? []) this.boss.notifyWorker(id);
  }

  /** Notifications may have been lost (the listener reconnected): every worker fetches once. */
  wakeAll(): void {
    for (const queue of this.workerIds.keys()) this.wake(queue);
  }
}
