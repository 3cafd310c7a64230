// Cost that stays flat as the log grows: the same appends and catch-up reads against a small log
// and a large one (10 M events in a full run), in the same run, interleaved. Each log lives in a
// database of its own, migrated like production and loaded in bulk with SQL (generating millions
// of events through the append path would take hours and measure nothing more).
//
// What is compared (large ÷ small, medians over rounds; the aim is ≤ 1.2×):
//   - append rate: appendNow (one statement, sequenced after commit) at 1 and 8 writers, into a
//     workspace that holds the bulk of the log;
//   - catch-up read: a reader resuming `after` a cursor 1,000 events back reads those 1,000 events
//     in the feed's pages, as a reconnecting subscriber does (readWorkspaceEvents).
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { readWorkspaceEvents } from '../../../server/channel/event-feed.ts';
import { sequenceEvents } from '../../../server/channel/sequencer.ts';
import { appendNow } from '../../../server/channel/unit-of-work.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { percentile } from '../stats.ts';
import { median } from '../verdict.ts';

export type ScaleConfig = { smallEvents: number; largeEvents: number; rounds: number; appendOps: number; reads: number; writers: readonly number[] };
export type ScaleSide = { events: number; loadSeconds: number; tableMB: number; appendPerSec: Record<number, number[]>; readMs: number[]; readCount: number[] };
export type ScaleResults = { config: ScaleConfig; small: ScaleSide; large: ScaleSide; appendErrors: number };

/** Events per bulk task (the bulk log is made of completed tasks of this many events each). */
const EVENTS_PER_TASK = 100;
/** A reader resumes this many events back. */
const CATCH_UP = 1_000;
/** The live feed reads in pages of this size (OrderedFeed's default). */
const PAGE = 256;

async function pgClient(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

/**
 * Loads `events` events in bulk into workspace A of `t` (completed tasks of EVENTS_PER_TASK events,
 * positions 1..events, an hour of history per 36,000 events), then sets the workspace's head.
 * Triggers and foreign-key checks are off for the load only (session_replication_role): the rows
 * are consistent by construction, and the checks would only slow the load.
 */
async function bulkLoad(t: TestApp, events: number, progress: (s: string) => void): Promise<number> {
  const started = performance.now();
  const c = await pgClient(t.dbUrl);
  try {
    const ws = t.a.workspaceId;
    const tasks = Math.ceil(events / EVENTS_PER_TASK);
    await c.query('SET session_replication_role = replica');
    // Task ids are derived from the task number so the events below can name them without a join.
    const taskId = (k: string) => `('00000000-0000-4000-9000-' || lpad(to_hex(${k}), 12, '0'))::uuid`;
    await c.query(
      `INSERT INTO tasks (id, workspace_id, title, status, last_event_seq)
       SELECT ${taskId('g')}, $1::uuid, 'bulk task ' || g, 'COMPLETED', $2::int FROM generate_series(1, $3::int) g`,
      [ws, EVENTS_PER_TASK, tasks],
    );
    const batchTasks = 10_000; // 1 M events per statement
    for (let from = 1; from <= tasks; from += batchTasks) {
      const to = Math.min(tasks, from + batchTasks - 1);
      await c.query(
        `INSERT INTO task_events (task_id, workspace_id, seq, position, type, actor_kind, occurred_at, payload, payload_size, payload_schema)
         SELECT ${taskId('k')}, $1::uuid, s, (k - 1) * $2::int + s, 'BULK', 'SYSTEM',
                now() - make_interval(secs => ($4::int * $2::int - ((k - 1) * $2::int + s)) * 0.1),
                jsonb_build_object('i', (k - 1) * $2::int + s, 'note', 'a bulk event of a small, realistic size'), 70, 'bulk/v1'
           FROM generate_series($3::int, $4::int) k, generate_series(1, $2::int) s`,
        [ws, EVENTS_PER_TASK, from, to],
      );
      if (events >= 1_000_000) progress(`  scale: loaded ${(to * EVENTS_PER_TASK / 1e6).toFixed(0)} M of ${(events / 1e6).toFixed(0)} M events`);
    }
    await c.query('SET session_replication_role = DEFAULT');
    await c.query('UPDATE workspaces SET event_position = $2::bigint WHERE id = $1::uuid', [ws, tasks * EVENTS_PER_TASK]);
    await c.query('VACUUM ANALYZE task_events');
    await c.query('ANALYZE tasks');
  } finally {
    await c.end();
  }
  return (performance.now() - started) / 1000;
}

async function tableMB(t: TestApp): Promise<number> {
  const c = await pgClient(t.dbUrl);
  try {
    // The log's total size with its indexes (a partitioned table: the sum of its partitions).
    const r = await c.query<{ b: string }>(
      `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::text AS b FROM pg_class c
        WHERE c.oid = 'task_events'::regclass OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'task_events'::regclass)`,
    );
    return Number(r.rows[0]!.b) / 1024 / 1024;
  } finally {
    await c.end();
  }
}

async function appendRate(t: TestApp, tasks: string[], writers: number, ops: number, onError: () => void): Promise<number> {
  let next = 0;
  let done = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (;;) {
        const i = next++;
        if (i >= ops) return;
        try {
          await appendNow(t.app.deps, tasks[w]!, [{ type: 'NOTE', actor: { kind: 'SYSTEM' }, payload: { i } }]);
          done++;
        } catch {
          onError();
        }
      }
    }),
  );
  return (done / (performance.now() - start)) * 1000;
}

/** Reads the CATCH_UP events after a cursor that far back, in the feed's pages; returns ms and how many were read. */
async function catchUp(t: TestApp): Promise<{ ms: number; count: number }> {
  const ws = t.a.workspaceId;
  const head = (await sequenceEvents(t.app.deps.prisma, [ws])).get(ws) ?? 0;
  let after = Math.max(0, head - CATCH_UP);
  let count = 0;
  const start = performance.now();
  for (;;) {
    const page = await readWorkspaceEvents(t.app.deps.prisma, ws, after, PAGE);
    count += page.length;
    if (page.length < PAGE) break;
    after = page.at(-1)!.position;
  }
  return { ms: performance.now() - start, count };
}

export async function benchScale(cfg: ScaleConfig, progress: (s: string) => void): Promise<ScaleResults> {
  const maxWriters = Math.max(...cfg.writers);
  const sides: { t: TestApp; side: ScaleSide; tasks: string[] }[] = [];
  let appendErrors = 0;
  try {
    for (const [label, events] of [['small', cfg.smallEvents], ['large', cfg.largeEvents]] as const) {
      const t = await startTestApp(`scale_${label}`, { rateLimitPerMinute: 10_000_000 });
      const side: ScaleSide = { events, loadSeconds: 0, tableMB: 0, appendPerSec: {}, readMs: [], readCount: [] };
      sides.push({ t, side, tasks: [] });
      side.loadSeconds = await bulkLoad(t, events, progress);
      side.tableMB = await tableMB(t);
      progress(`  scale: ${label} log of ${events.toLocaleString('en')} events loaded in ${side.loadSeconds.toFixed(1)} s (${side.tableMB.toFixed(0)} MB with indexes)`);
      for (let w = 0; w < maxWriters; w++) {
        sides.at(-1)!.tasks.push((await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: `scale-writer-${w}` } })).id);
      }
    }
    // Warm-up of each side (pools, plans, caches), not measured.
    for (const s of sides) {
      for (const w of cfg.writers) await appendRate(s.t, s.tasks, w, w * 10, () => undefined);
      await catchUp(s.t);
    }
    for (let r = 0; r < cfg.rounds; r++) {
      // Rotate which side goes first, so drift favours neither.
      for (const s of r % 2 ? [...sides].reverse() : sides) {
        for (const w of cfg.writers) (s.side.appendPerSec[w] ??= []).push(await appendRate(s.t, s.tasks, w, cfg.appendOps, () => appendErrors++));
        for (let i = 0; i < cfg.reads; i++) {
          const got = await catchUp(s.t);
          s.side.readMs.push(got.ms);
          s.side.readCount.push(got.count);
        }
      }
    }
  } finally {
    for (const s of sides) await s.t.close();
  }
  return { config: cfg, small: sides[0]!.side, large: sides[1]!.side, appendErrors };
}

export type ScaleFigures = {
  appendRatio: Record<number, number>;
  append: Record<number, { small: number; large: number }>;
  read: { smallP50: number; smallP99: number; largeP50: number; largeP99: number; ratioP50: number; ratioP99: number };
};

/** Large ÷ small: append rates as small ÷ large (a slower large log reads above 1), read latency as large ÷ small. */
export function scaleFigures(r: ScaleResults): ScaleFigures {
  const append: ScaleFigures['append'] = {};
  const appendRatio: ScaleFigures['appendRatio'] = {};
  for (const w of r.config.writers) {
    const small = median(r.small.appendPerSec[w] ?? []);
    const large = median(r.large.appendPerSec[w] ?? []);
    append[w] = { small, large };
    appendRatio[w] = small / large;
  }
  const read = {
    smallP50: percentile(r.small.readMs, 50), smallP99: percentile(r.small.readMs, 99),
    largeP50: percentile(r.large.readMs, 50), largeP99: percentile(r.large.readMs, 99),
    ratioP50: 0, ratioP99: 0,
  };
  read.ratioP50 = read.largeP50 / read.smallP50;
  read.ratioP99 = read.largeP99 / read.smallP99;
  return { append, appendRatio, read };
}

/** Invariants: the loads hold what they should, every catch-up read returned its 1,000 events, no append failed. */
export function scaleViolations(r: ScaleResults): string[] {
  const out: string[] = [];
  if (r.appendErrors) out.push(`scale: ${r.appendErrors} appends failed`);
  for (const [label, s] of [['small', r.small], ['large', r.large]] as const) {
    const short = s.readCount.filter((n) => n !== CATCH_UP).length;
    if (short) out.push(`scale: ${short} catch-up reads on the ${label} log did not return ${CATCH_UP} events`);
    if (!s.readMs.length) out.push(`scale: no catch-up read measured on the ${label} log`);
  }
  return out;
}
