// pg-boss only wakes workers; PostgreSQL rows are the source of truth. A wake-up job is keyed by
// turn id + generation and is sent in the same transaction as the state change that needs it, so
// a committed turn always has its job (and a rolled-back one never does). A lost or failed job is
// found again by the watchdog from the turns table.
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

export class Scheduler {
  readonly boss: PgBoss;
  private started = false;

  constructor(
    connectionString: string,
    private readonly log: Logger,
    private readonly settings: QueueSettings = {},
  ) {
    this.boss = new PgBoss({ connectionString, schema: 'pgboss', max: 4, application_name: 'atelier-scheduler' });
    this.boss.on('error', (e: Error) => this.log.warn('pg-boss error', { error: e.message }));
  }

  async start(): Promise<void> {
    if (this.started) return;
    await this.boss.start();
    // `short`: at most one queued job per singleton key, so re-sending a wake-up for the same
    // turn and generation is a no-op.
    const options = { policy: 'short' as const, retryLimit: this.settings.retryLimit ?? 3, retryDelay: 1, expireInSeconds: this.settings.expireInSeconds ?? 15 * 60 };
    await this.boss.createQueue(TURN_QUEUE, options);
    await this.boss.createQueue(RECOVERY_QUEUE, options);
    // Settings changed since the queues were created take effect too.
    await this.boss.updateQueue(TURN_QUEUE, { retryLimit: options.retryLimit, expireInSeconds: options.expireInSeconds }).catch(() => {});
    await this.boss.updateQueue(RECOVERY_QUEUE, { retryLimit: options.retryLimit, expireInSeconds: options.expireInSeconds }).catch(() => {});
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
      await this.boss.work<TurnJob>(RECOVERY_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, run);
    }
    for (let i = 0; i < concurrency; i++) {
      await this.boss.work<TurnJob>(TURN_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, run);
    }
  }
}
