// bench:jobs's subscriber process (forked by test/bench/jobs.ts): a subscriber in a process other
// than the one that applies the provider's callbacks, as a browser's API process usually is. It runs
// live feeds of its own (its own LISTEN connection, woken by the NOTIFY the applying process sends
// after commit, reading the log) and follows the workspace from position 0; beside it, a plain LISTEN
// connection receives the baseline's INSERT … + pg_notify. Receipts are stamped on the monotonic
// clock (process.hrtime, shared by every process of the machine) and sent to the parent in batches.
import { createLiveFeeds } from '../../../server/channel/live-feeds.ts';
import { createPrisma } from '../../../server/db/client.ts';
import { createLogger } from '../../../server/log.ts';
import pg from 'pg';

export const BASELINE_CHANNEL = 'bench_jobs';
export const monoMs = () => Number(process.hrtime.bigint()) / 1e6;

export type SubscriberJob = { dbUrl: string; workspaceId: string };
/** position, type, job id (final job events only), receipt time */
export type Receipt = [number, string, string | null, number];
export type SubscriberMessage =
  | { type: 'ready' }
  | { type: 'events'; receipts: Receipt[] }
  | { type: 'baseline'; samples: [number, number][] }
  | { type: 'error'; message: string };

const FINAL = new Set(['JOB_SUCCEEDED', 'JOB_FAILED', 'JOB_CANCELLED']);
const post = (m: SubscriberMessage) => new Promise<void>((r) => process.send!(m, undefined, {}, () => r()));

async function run(job: SubscriberJob) {
  const prisma = createPrisma(job.dbUrl, { max: 4 });
  const feeds = createLiveFeeds({ prisma, connectionString: job.dbUrl, log: createLogger('warn'), pollMs: 1000 });
  await feeds.start();
  const listener = new pg.Client({ connectionString: job.dbUrl });
  await listener.connect();
  let receipts: Receipt[] = [];
  let samples: [number, number][] = [];
  listener.on('notification', (m) => {
    const at = monoMs();
    if (m.channel === BASELINE_CHANNEL && m.payload) samples.push([Number(m.payload), at]);
  });
  await listener.query(`LISTEN ${BASELINE_CHANNEL}`);
  const flush = setInterval(() => {
    if (receipts.length) void post({ type: 'events', receipts });
    if (samples.length) void post({ type: 'baseline', samples });
    receipts = [];
    samples = [];
  }, 50);
  const abort = new AbortController();
  process.once('message', () => abort.abort()); // the parent's "stop"
  const stream = feeds.events.workspaceStream(job.workspaceId, 0, abort.signal);
  await post({ type: 'ready' });
  try {
    for await (const e of stream) {
      const at = monoMs();
      const jobId = FINAL.has(e.type) ? ((e.payload as { jobId?: string } | null)?.jobId ?? null) : null;
      receipts.push([e.position, e.type, jobId, at]);
    }
  } finally {
    clearInterval(flush);
    await post({ type: 'events', receipts });
    await post({ type: 'baseline', samples });
    await listener.end();
    await feeds.stop();
    await prisma.$disconnect();
  }
}

// Nothing outlives the benchmark: a parent that goes away takes this process with it.
process.on('disconnect', () => process.exit(1));
process.once('message', (job: SubscriberJob) => {
  run(job).then(
    () => process.exit(0),
    async (e) => {
      await post({ type: 'error', message: String((e as Error)?.stack ?? e) });
      process.exit(1);
    },
  );
});
