// pg-boss only wakes workers; PostgreSQL rows are the source of truth. A wake-up job is keyed by
// turn id + generation and is sent in the same transaction as the state change that needs it, so
// a committed turn always has its job (and a rolled-back one never does). A lost or failed job is
// found again by the watchdog from the turns table.
import { fromPrisma, PgBoss } from 'pg-boss';
import type { Db } from '../db/client.ts';
import type { Logger } from '../log.ts';

export const TURN_QUEUE = 'atelier-turn';

export type TurnJob = { turnId: string; generation: number };

export class Scheduler {
  readonly boss: PgBoss;
  private started = false;

  constructor(
    connectionString: string,
    private readonly log: Logger,
  ) {
    this.boss = new PgBoss({ connectionString, schema: 'pgboss', max: 4, application_name: 'atelier-scheduler' });
    this.boss.on('error', (e: Error) => this.log.warn('pg-boss error', { error: e.message }));
  }

  async start(): Promise<void> {
    if (this.started) return;
    await this.boss.start();
    // `short`: at most one queued job per singleton key, so re-sending a wake-up for the same
    // turn and generation is a no-op.
    await this.boss.createQueue(TURN_QUEUE, { policy: 'short', retryLimit: 3, retryDelay: 1, expireInSeconds: 15 * 60 });
    this.started = true;
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: false, close: true, timeout: 2000 });
  }

  /** Sends a wake-up for the turn inside the caller's transaction (or on its own with the client). */
  async enqueueTurn(db: Db, job: TurnJob): Promise<void> {
    await this.boss.send(TURN_QUEUE, job, {
      singletonKey: `${job.turnId}:${job.generation}`,
      db: fromPrisma(db as never),
    });
  }

  /** Stops fetching wake-ups (jobs not yet fetched stay queued for other workers). */
  async stopWorking(): Promise<void> {
    await this.boss.offWork(TURN_QUEUE);
  }

  async work(concurrency: number, handler: (job: TurnJob) => Promise<void>): Promise<void> {
    for (let i = 0; i < concurrency; i++) {
      await this.boss.work<TurnJob>(TURN_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async (jobs) => {
        for (const j of jobs) await handler(j.data);
      });
    }
  }
}
