// Event-channel benchmark: append throughput and publish→receive latency, each beside a bare
// PostgreSQL baseline measured in the same run on the same database (the machine is small and
// shared, so absolute figures drift; the ratios are the point).
//
//   npm run bench:channel            full run (~1–2 min)
//   npx tsx test/bench/channel.ts --quick   smoke run (< 30 s)
//
// Prints a table, then one line `BENCH_RESULT {json}`. Never asserts timings.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import pg from 'pg';
import { createClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { transactWithEvents } from '../../server/channel/unit-of-work.ts';
import { seedWorkspace, startTestApp, type TestApp } from '../helpers/app.ts';
import { sleep, percentile, round, fmt, table } from './stats.ts';

const QUICK = process.argv.includes('--quick');

const CFG = QUICK
  ? {
      mode: 'quick',
      concurrencies: [1, 8, 20],
      opsPerCase: 200, // appends (and baseline inserts) per throughput case
      maxCaseMs: 3_000, // a case stops early at this deadline
      subscriberCounts: [1, 10],
      ratePerSec: 100,
      latencyMs: 1_000,
    }
  : {
      mode: 'full',
      concurrencies: [1, 8, 20],
      opsPerCase: 2_000,
      maxCaseMs: 4_000,
      subscriberCounts: [1, 10, 100],
      ratePerSec: 100,
      latencyMs: 3_000,
    };
const MAX_LISTEN_CONNECTIONS = 20;
/** EventHub.stats counters reported (as deltas) per latency case. */
const HUB_COUNTERS = ['topicReads', 'replayReads', 'notifications', 'polls'] as const;
const RECEIVE_TIMEOUT_MS = 30_000;
/** Prisma pool size of the app (createPrisma's default in server/db/client.ts). */
const APP_POOL_MAX = 10;

// ---------------------------------------------------------------------------------------------
// Helpers

const now = () => performance.timeOrigin + performance.now(); // absolute ms, same clock in-process
const globalTaskId = (uuid: string) => Buffer.from(`Task:${uuid}`).toString('base64');




/** Runs `worker(w, i)` from `concurrency` loops until `ops` operations are done or `deadline` passes. */
async function runLoad(
  concurrency: number,
  ops: number,
  maxMs: number,
  worker: (w: number, i: number) => Promise<void>,
): Promise<{ ops: number; ms: number; perSec: number }> {
  let next = 0;
  let done = 0;
  const start = performance.now();
  const deadline = start + maxMs;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (;;) {
        if (performance.now() > deadline) return;
        const i = next++;
        if (i >= ops) return;
        await worker(w, i);
        done++;
      }
    }),
  );
  const ms = performance.now() - start;
  return { ops: done, ms, perSec: (done / ms) * 1000 };
}

/** Calls `fire(i)` at a steady rate for `durationMs`; waits for all of them. */
async function steady(ratePerSec: number, durationMs: number, fire: (i: number) => Promise<void>): Promise<number> {
  const total = Math.max(1, Math.round((ratePerSec * durationMs) / 1000));
  const interval = 1000 / ratePerSec;
  const start = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = start + i * interval - performance.now();
    if (wait > 1) await sleep(wait);
    inflight.push(fire(i));
  }
  await Promise.all(inflight);
  return total;
}

/**
 * Event-loop delay (ms) of this process while `f` runs: clients, server and producer share one loop.
 * The histogram's samples include its sampling interval, which is subtracted.
 */
async function withLoopDelay<T>(f: () => Promise<T>): Promise<T & { loopDelayP50: number; loopDelayP99: number }> {
  const resolution = 2;
  const h = monitorEventLoopDelay({ resolution });
  h.enable();
  const excess = (ns: number) => Math.max(0, ns / 1e6 - resolution);
  try {
    const v = await f();
    return { ...v, loopDelayP50: excess(h.percentile(50)), loopDelayP99: excess(h.percentile(99)) };
  } finally {
    h.disable();
  }
}

async function pgClient(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

// ---------------------------------------------------------------------------------------------
// 1. Append throughput

type ThroughputRow = {
  concurrency: number;
  baselineRowsPerSec: number;
  baselineOps: number;
  sameWorkspace: { eventsPerSec: number; ops: number; ratio: number; errors: number };
  multiWorkspace: { eventsPerSec: number; ops: number; ratio: number; errors: number };
};

async function benchThroughput(t: TestApp): Promise<ThroughputRow[]> {
  const deps = t.app.deps;
  const maxC = Math.max(...CFG.concurrencies);

  // Shape (a): one task per writer, all in workspace A. Shape (b): one workspace (and task) per writer.
  const sameWsTasks: string[] = [];
  for (let w = 0; w < maxC; w++) {
    sameWsTasks.push((await deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: `bench-a-${w}` } })).id);
  }
  const workspaces = [t.a.workspaceId, t.b.workspaceId];
  for (let w = workspaces.length; w < maxC; w++) workspaces.push((await seedWorkspace(t.app, `BenchW${w}`)).workspaceId);
  const multiWsTasks: string[] = [];
  for (let w = 0; w < maxC; w++) {
    multiWsTasks.push((await deps.prisma.task.create({ data: { workspaceId: workspaces[w]!, title: `bench-b-${w}` } })).id);
  }

  // Baseline: bare autocommit single-row INSERTs, one dedicated connection per writer.
  const base = await pgClient(t.dbUrl);
  await base.query(`CREATE TABLE bench_baseline (
      id bigserial PRIMARY KEY, writer int NOT NULL, i int NOT NULL, payload jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp())`);
  await base.end();
  const baseConns: pg.Client[] = [];
  for (let w = 0; w < maxC; w++) baseConns.push(await pgClient(t.dbUrl));

  const insert = (w: number, i: number) =>
    baseConns[w]!
      .query('INSERT INTO bench_baseline (writer, i, payload) VALUES ($1, $2, $3)', [w, i, JSON.stringify({ i, t: Date.now() })])
      .then(() => undefined);

  let appendErrors = 0;
  const append = (tasks: string[]) => async (w: number, i: number) => {
    try {
      await transactWithEvents(deps, async (_tx, emit) => {
        emit(tasks[w]!, { type: 'BENCH', actor: { kind: 'SYSTEM' }, payload: { i, t: Date.now() } });
      });
    } catch (e) {
      appendErrors++;
      if (appendErrors <= 3) console.error(`  append failed: ${(e as Error).message.split('\n')[0]}`);
    }
  };

  // Warm up connection pools and caches (not measured).
  await runLoad(maxC, maxC * 3, 5_000, insert);
  await runLoad(maxC, maxC * 3, 5_000, append(multiWsTasks));
  await runLoad(maxC, maxC * 3, 5_000, append(sameWsTasks));

  const rows: ThroughputRow[] = [];
  for (const c of CFG.concurrencies) {
    // Interleaved per concurrency, so drift hits baseline and append alike.
    const b = await runLoad(c, CFG.opsPerCase, CFG.maxCaseMs, insert);
    appendErrors = 0;
    const a = await runLoad(c, CFG.opsPerCase, CFG.maxCaseMs, append(sameWsTasks));
    const aErr = appendErrors;
    appendErrors = 0;
    const m = await runLoad(c, CFG.opsPerCase, CFG.maxCaseMs, append(multiWsTasks));
    const mErr = appendErrors;
    rows.push({
      concurrency: c,
      baselineRowsPerSec: b.perSec,
      baselineOps: b.ops,
      sameWorkspace: { eventsPerSec: (a.ops - aErr) / (a.ms / 1000), ops: a.ops - aErr, ratio: ((a.ops - aErr) / (a.ms / 1000)) / b.perSec, errors: aErr },
      multiWorkspace: { eventsPerSec: (m.ops - mErr) / (m.ms / 1000), ops: m.ops - mErr, ratio: ((m.ops - mErr) / (m.ms / 1000)) / b.perSec, errors: mErr },
    });
    process.stderr.write(`  throughput c=${c} done\n`);
  }
  await Promise.all(baseConns.map((c) => c.end()));
  return rows;
}

// ---------------------------------------------------------------------------------------------
// 2. Publish→receive latency

type LatencyStats = { samples: number; expected: number; p50: number; p99: number; max: number };
type LatencyRow = {
  subscribers: number;
  events: number;
  app: LatencyStats & {
    commitToReceive: { p50: number; p99: number };
    appendMs: { p50: number; p99: number };
    complete: boolean;
    anomalies: string[];
    hub: Record<string, number>;
    loopDelayP50: number;
    loopDelayP99: number;
  };
  pg: LatencyStats & { listenConnections: number; fanoutPerConnection: number; complete: boolean; loopDelayP50: number; loopDelayP99: number };
  ratioP50: number;
  ratioP99: number;
};

function stats(sample: number[], expected: number): LatencyStats {
  return { samples: sample.length, expected, p50: percentile(sample, 50), p99: percentile(sample, 99), max: sample.length ? Math.max(...sample) : NaN };
}

/** Resolves when pred() holds (checked every 5 ms), or false after timeoutMs. */
async function waitFor(pred: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (!pred()) {
    if (performance.now() > end) return false;
    await sleep(5);
  }
  return true;
}

type Sub = {
  client: WsClient;
  lastSeq: number;
  received: number;
  /** receive time by seq */
  at: Map<number, number>;
  latencies: number[];
  anomalies: string[];
  error: unknown;
};

async function appLatency(t: TestApp, n: number) {
  const deps = t.app.deps;
  const task = await deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: `bench-lat-${n}` } });
  const gid = globalTaskId(task.id);
  const wsUrl = t.url.replace(/^http/, 'ws') + '/graphql';

  const subs: Sub[] = [];
  const connected: Promise<void>[] = [];
  for (let k = 0; k < n; k++) {
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${t.a.ownerToken}` },
      lazy: false,
      retryAttempts: 0,
    });
    const sub: Sub = { client, lastSeq: 0, received: 0, at: new Map(), latencies: [], anomalies: [], error: undefined };
    subs.push(sub);
    connected.push(new Promise<void>((resolve) => client.on('connected', () => resolve())));
    client.subscribe<{ taskEvents: { seq: number; payload: { bench?: boolean; t?: number } | null } }>(
      {
        query: 'subscription($taskId: ID!, $after: Int) { taskEvents(taskId: $taskId, after: $after) { seq payload } }',
        variables: { taskId: gid, after: 0 },
      },
      {
        next: (r) => {
          const at = now();
          if (r.errors?.length) {
            sub.error = r.errors;
            return;
          }
          const e = r.data?.taskEvents;
          if (!e) return;
          if (e.seq !== sub.lastSeq + 1 && sub.anomalies.length < 5) sub.anomalies.push(`expected seq ${sub.lastSeq + 1}, got ${e.seq}`);
          if (e.seq > sub.lastSeq) sub.lastSeq = e.seq;
          sub.received++;
          sub.at.set(e.seq, at);
          if (e.payload?.bench && typeof e.payload.t === 'number') sub.latencies.push(at - e.payload.t);
        },
        error: (e) => {
          sub.error = e;
        },
        complete: () => {},
      },
    );
  }
  await Promise.all(connected);

  // Primer (seq 1): once every subscriber has it, every subscription is live on the server.
  await transactWithEvents(deps, async (_tx, emit) => {
    emit(task.id, { type: 'BENCH_PRIMER', actor: { kind: 'SYSTEM' }, payload: { bench: false } });
  });
  const primed = await waitFor(() => subs.every((s) => s.lastSeq >= 1 || s.error), RECEIVE_TIMEOUT_MS);
  if (!primed) console.error(`  [app n=${n}] not every subscriber received the primer`);

  const hubCounters = () => {
    const st = deps.hub.stats as unknown as Record<string, number>;
    return Object.fromEntries(HUB_COUNTERS.map((k) => [k, st[k] ?? NaN]));
  };
  const hub0 = hubCounters();
  const commitAt = new Map<number, number>();
  const appendMs: number[] = [];
  const events = await steady(CFG.ratePerSec, CFG.latencyMs, async (i) => {
    const t0 = now();
    const out = await transactWithEvents(deps, async (_tx, emit) => {
      emit(task.id, { type: 'BENCH', actor: { kind: 'SYSTEM' }, payload: { bench: true, i, t: t0 } });
    });
    const t1 = now();
    appendMs.push(t1 - t0);
    for (const e of out.events) commitAt.set(e.seq, t1);
  });
  const finalSeq = events + 1;
  const complete = await waitFor(() => subs.every((s) => s.lastSeq >= finalSeq || s.error), RECEIVE_TIMEOUT_MS);
  const hub1 = hubCounters();
  const hub: Record<string, number> = {};
  for (const k of HUB_COUNTERS) hub[k] = hub1[k]! - hub0[k]!;

  const latencies: number[] = [];
  const fromCommit: number[] = [];
  const anomalies: string[] = [];
  for (const [k, s] of subs.entries()) {
    latencies.push(...s.latencies);
    for (const [seq, at] of s.at) {
      const c = commitAt.get(seq);
      if (c !== undefined) fromCommit.push(at - c);
    }
    if (s.error) anomalies.push(`sub ${k}: error ${JSON.stringify(s.error).slice(0, 200)}`);
    if (s.received !== s.lastSeq) anomalies.push(`sub ${k}: received ${s.received} events, last seq ${s.lastSeq}`);
    if (s.lastSeq < finalSeq) anomalies.push(`sub ${k}: stopped at seq ${s.lastSeq} of ${finalSeq}`);
    for (const a of s.anomalies) anomalies.push(`sub ${k}: ${a}`);
  }
  await Promise.all(subs.map((s) => s.client.dispose()));
  return {
    events,
    ...stats(latencies, events * n),
    commitToReceive: { p50: percentile(fromCommit, 50), p99: percentile(fromCommit, 99) },
    appendMs: { p50: percentile(appendMs, 50), p99: percentile(appendMs, 99) },
    complete,
    anomalies,
    hub,
  };
}

async function pgLatency(t: TestApp, n: number) {
  const conns = Math.min(n, MAX_LISTEN_CONNECTIONS);
  const fanout = Math.ceil(n / conns);
  const channel = `bench_${n}`;
  const listeners: pg.Client[] = [];
  const latencies: number[] = [];
  const got: number[] = [];
  let virtual = 0;
  for (let c = 0; c < conns; c++) {
    const l = await pgClient(t.dbUrl);
    // Virtual subscribers served by this connection (in-process fan-out), so exactly n in total.
    const k = Math.min(fanout, n - virtual);
    virtual += k;
    const idx = c;
    got.push(0);
    l.on('notification', (msg) => {
      if (msg.channel !== channel || !msg.payload) return;
      const p = JSON.parse(msg.payload) as { t: number };
      for (let j = 0; j < k; j++) latencies.push(now() - p.t);
      got[idx]!++;
    });
    await l.query(`LISTEN ${channel}`);
    listeners.push(l);
  }
  const producer = await pgClient(t.dbUrl);
  const events = await steady(CFG.ratePerSec, CFG.latencyMs, async (i) => {
    await producer.query('SELECT pg_notify($1, $2)', [channel, JSON.stringify({ i, t: now() })]);
  });
  const complete = await waitFor(() => got.every((g) => g >= events), RECEIVE_TIMEOUT_MS);
  await producer.end();
  await Promise.all(listeners.map((l) => l.end()));
  return { events, ...stats(latencies, events * n), listenConnections: conns, fanoutPerConnection: fanout, complete };
}

async function benchLatency(t: TestApp): Promise<LatencyRow[]> {
  const rows: LatencyRow[] = [];
  for (const n of CFG.subscriberCounts) {
    const app = await withLoopDelay(() => appLatency(t, n));
    const base = await withLoopDelay(() => pgLatency(t, n));
    rows.push({
      subscribers: n,
      events: app.events,
      app,
      pg: base,
      ratioP50: app.p50 / base.p50,
      ratioP99: app.p99 / base.p99,
    });
    process.stderr.write(`  latency n=${n} done\n`);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = performance.now();
  const t = await startTestApp('bench', { rateLimitPerMinute: 10_000_000 });
  let throughput: ThroughputRow[] = [];
  let latency: LatencyRow[] = [];
  let pgVersion = '';
  try {
    const c = await pgClient(t.dbUrl);
    const v = await c.query<{ v: string; f: string; s: string }>(
      "SELECT current_setting('server_version') AS v, current_setting('fsync') AS f, current_setting('synchronous_commit') AS s",
    );
    pgVersion = `PostgreSQL ${v.rows[0]!.v} (fsync=${v.rows[0]!.f}, synchronous_commit=${v.rows[0]!.s})`;
    await c.end();
    process.stderr.write(`bench:channel (${CFG.mode}) on ${pgVersion}\n`);
    throughput = await benchThroughput(t);
    latency = await benchLatency(t);
  } finally {
    await t.close();
  }
  const totalS = (performance.now() - started) / 1000;

  const out: string[] = [];
  out.push('');
  out.push(`Atelier event channel benchmark (${CFG.mode}) — ${pgVersion}, node ${process.version}`);
  out.push('');
  out.push(
    `1. Append throughput: transactWithEvents (1 event per transaction), up to ${CFG.opsPerCase} ops or ${CFG.maxCaseMs / 1000} s per case.`,
  );
  out.push(`   baseline = autocommit single-row INSERT INTO bench_baseline, one dedicated pg connection per writer.`);
  out.push(`   (a) same workspace: each writer appends to its own task, all tasks in one workspace`);
  out.push(`   (b) multi-workspace: each writer appends to a task in its own workspace`);
  out.push(`   note: the app's Prisma pool holds at most ${APP_POOL_MAX} connections, so appends above that concurrency queue for one.`);
  out.push('');
  out.push(
    table(
      ['concurrency', 'baseline rows/s', '(a) events/s', '(a) ratio', '(b) events/s', '(b) ratio', 'errors a/b'],
      throughput.map((r) => [
        String(r.concurrency),
        fmt(r.baselineRowsPerSec, 0),
        fmt(r.sameWorkspace.eventsPerSec, 0),
        fmt(r.sameWorkspace.ratio, 2),
        fmt(r.multiWorkspace.eventsPerSec, 0),
        fmt(r.multiWorkspace.ratio, 2),
        `${r.sameWorkspace.errors}/${r.multiWorkspace.errors}`,
      ]),
    ),
  );
  out.push('');
  out.push(
    `2. Publish→receive latency, ${CFG.ratePerSec} events/s for ${CFG.latencyMs / 1000} s per case, all subscribers on one task.`,
  );
  out.push(`   app = producer timestamp taken just before transactWithEvents → graphql-ws client (real WebSocket) receives taskEvents.`);
  out.push(`   pg  = timestamp before SELECT pg_notify on a producer connection → LISTEN connection receives it;`);
  out.push(`         min(N, ${MAX_LISTEN_CONNECTIONS}) LISTEN connections, each fanning out in-process to ceil(N/conns) subscribers.`);
  out.push(`   Clients, server and producer share one Node process and event loop (and the 2-core machine with PostgreSQL);`);
  out.push(`   commit→recv = from transactWithEvents resolving to receipt; append = the producer's transactWithEvents duration.`);
  out.push('');
  out.push(
    table(
      ['subscribers', 'events', 'app p50 ms', 'app p99 ms', 'pg p50 ms', 'pg p99 ms', 'ratio p50', 'ratio p99', 'pg conns×fanout', 'commit→recv p50/p99', 'append p50/p99', 'complete'],
      latency.map((r) => [
        String(r.subscribers),
        String(r.events),
        fmt(r.app.p50, 2),
        fmt(r.app.p99, 2),
        fmt(r.pg.p50, 2),
        fmt(r.pg.p99, 2),
        fmt(r.ratioP50, 1),
        fmt(r.ratioP99, 1),
        `${r.pg.listenConnections}×${r.pg.fanoutPerConnection}`,
        `${fmt(r.app.commitToReceive.p50, 2)}/${fmt(r.app.commitToReceive.p99, 2)}`,
        `${fmt(r.app.appendMs.p50, 2)}/${fmt(r.app.appendMs.p99, 2)}`,
        `${r.app.complete && r.app.samples === r.app.expected ? 'yes' : `NO ${r.app.samples}/${r.app.expected}`}` +
          ` / ${r.pg.complete && r.pg.samples === r.pg.expected ? 'yes' : `NO ${r.pg.samples}/${r.pg.expected}`}`,
      ]),
    ),
  );
  for (const r of latency) {
    const h = r.app.hub;
    out.push(
      `   N=${r.subscribers}: hub topicReads=${h.topicReads} replayReads=${h.replayReads} notifications=${h.notifications} polls=${h.polls};` +
        ` event-loop delay p50/p99 app ${fmt(r.app.loopDelayP50, 1)}/${fmt(r.app.loopDelayP99, 1)} ms, pg ${fmt(r.pg.loopDelayP50, 1)}/${fmt(r.pg.loopDelayP99, 1)} ms`,
    );
    for (const a of r.app.anomalies.slice(0, 10)) out.push(`   ANOMALY N=${r.subscribers}: ${a}`);
    if (r.app.anomalies.length > 10) out.push(`   … ${r.app.anomalies.length - 10} more anomalies`);
  }
  out.push('');
  out.push(`total ${totalS.toFixed(1)} s`);
  console.log(out.join('\n'));

  const result = {
    mode: CFG.mode,
    postgres: pgVersion,
    node: process.version,
    totalSeconds: round(totalS, 1),
    throughput: throughput.map((r) => ({
      concurrency: r.concurrency,
      baselineRowsPerSec: round(r.baselineRowsPerSec, 1),
      baselineOps: r.baselineOps,
      sameWorkspace: { ...r.sameWorkspace, eventsPerSec: round(r.sameWorkspace.eventsPerSec, 1), ratio: round(r.sameWorkspace.ratio, 3) },
      multiWorkspace: { ...r.multiWorkspace, eventsPerSec: round(r.multiWorkspace.eventsPerSec, 1), ratio: round(r.multiWorkspace.ratio, 3) },
    })),
    latency: latency.map((r) => ({
      subscribers: r.subscribers,
      events: r.events,
      ratePerSec: CFG.ratePerSec,
      app: {
        p50: round(r.app.p50, 3),
        p99: round(r.app.p99, 3),
        max: round(r.app.max, 3),
        samples: r.app.samples,
        expected: r.app.expected,
        complete: r.app.complete,
        commitToReceiveP50: round(r.app.commitToReceive.p50, 3),
        commitToReceiveP99: round(r.app.commitToReceive.p99, 3),
        appendP50: round(r.app.appendMs.p50, 3),
        appendP99: round(r.app.appendMs.p99, 3),
        hub: r.app.hub,
        anomalies: r.app.anomalies.length,
        loopDelayP50: round(r.app.loopDelayP50, 2),
        loopDelayP99: round(r.app.loopDelayP99, 2),
      },
      pg: {
        p50: round(r.pg.p50, 3),
        p99: round(r.pg.p99, 3),
        max: round(r.pg.max, 3),
        samples: r.pg.samples,
        expected: r.pg.expected,
        complete: r.pg.complete,
        listenConnections: r.pg.listenConnections,
        fanoutPerConnection: r.pg.fanoutPerConnection,
        loopDelayP50: round(r.pg.loopDelayP50, 2),
        loopDelayP99: round(r.pg.loopDelayP99, 2),
      },
      ratioP50: round(r.ratioP50, 3),
      ratioP99: round(r.ratioP99, 3),
    })),
  };
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
