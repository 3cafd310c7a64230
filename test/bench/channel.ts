// Event-channel benchmark: append throughput and publish→receive latency, each beside a bare
// PostgreSQL baseline measured in the same run on the same database, interleaved with it (rounds
// alternate; figures are medians over rounds). The machine is small and shared, so absolute figures
// drift; the ratios are the point.
//
//   1. Throughput: the event append (appendNow, 1 event per call: one statement, sequenced and
//      notified after commit, live fan-out on) against autocommit single-row INSERTs on dedicated
//      connections, per concurrency, after a warm-up of each. A state change with its event
//      (transactWithEvents: an interactive transaction through Prisma) is measured beside them.
//   2. Latency: the producer and the subscribers run in a process of their own
//      (./channel/subscribers.ts), the server (hub, graphql-ws) and the baseline relay in this one,
//      so both paths pay the same cross-process delivery: producer → PostgreSQL → server process →
//      WebSocket → subscriber process.
//
//   npm run bench:channel                   full run (~2 min)
//   npm run bench:channel -- --quick        smoke run (< 1 min)
//
// Prints tables, then the verdict and one line `BENCH_RESULT {json}`. Exits 1 when an invariant is
// violated (append errors; a gap or duplicate in the log; a subscriber missing, doubling or
// reordering an event) or a ratio is past its bound (./channel/checks.ts).
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { appendNow, transactWithEvents } from '../../server/channel/unit-of-work.ts';
import { seedWorkspace, startTestApp, type TestApp } from '../helpers/app.ts';
import {
  channelGates, checkChannel, latencyFigures, plantChannel, throughputFigures,
  type ChannelResults, type LatencyCase, type LogCount, type ThroughputCase, type ThroughputRound,
} from './channel/checks.ts';
import { startRelay } from './channel/relay.ts';
import { benchScale, scaleFigures, type ScaleConfig } from './channel/scale.ts';
import type { ClientJob, ClientMessage } from './channel/subscribers.ts';
import { fmt, round, table } from './stats.ts';
import { plantRequested, targetLines, verdict, type Target } from './verdict.ts';

const QUICK = process.argv.includes('--quick');
// The growth comparison (./channel/scale.ts): a quick run only checks it works on a modest log.
const SCALE: ScaleConfig = QUICK
  ? { smallEvents: 10_000, largeEvents: 200_000, rounds: 2, appendOps: 100, reads: 10, writers: [1, 8] }
  : { smallEvents: 10_000, largeEvents: 10_000_000, rounds: 4, appendOps: 300, reads: 25, writers: [1, 8] };
const CFG = QUICK
  ? { mode: 'quick', concurrencies: [1, 8, 20], opsPerRound: 100, maxRoundMs: 1_500, throughputRounds: 3, subscriberCounts: [1, 10], ratePerSec: 100, segmentMs: 700, latencyRounds: 4, burstEvents: 100 }
  : { mode: 'full', concurrencies: [1, 8, 20], opsPerRound: 400, maxRoundMs: 2_500, throughputRounds: 5, subscriberCounts: [1, 10, 100, 1000], ratePerSec: 100, segmentMs: 1_500, latencyRounds: 6, burstEvents: 300 };
/** Prisma pool size of the app (createPrisma's default in server/db/client.ts). */
const APP_POOL_MAX = 10;
const HUB_COUNTERS = ['topicReads', 'replayReads', 'notifications', 'polls'] as const;
const globalTaskId = (uuid: string) => Buffer.from(`Task:${uuid}`).toString('base64');

async function pgClient(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

/** Runs `worker(w, i)` from `concurrency` loops until `ops` operations are done or `maxMs` passes. */
async function runLoad(concurrency: number, ops: number, maxMs: number, worker: (w: number, i: number) => Promise<void>) {
  let next = 0;
  let done = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (;;) {
        if (performance.now() - start > maxMs) return;
        const i = next++;
        if (i >= ops) return;
        await worker(w, i);
        done++;
      }
    }),
  );
  const ms = performance.now() - start;
  return { ops: done, perSec: (done / ms) * 1000 };
}

// ---------------------------------------------------------------------------------------------
// 1. Append throughput

async function benchThroughput(t: TestApp): Promise<{ cases: ThroughputCase[]; taskIds: string[]; workspaceIds: string[] }> {
  const deps = t.app.deps;
  const maxC = Math.max(...CFG.concurrencies);
  // (a) one task per writer, all in workspace A; (b) one workspace (and task) per writer.
  const sameWs: string[] = [];
  for (let w = 0; w < maxC; w++) sameWs.push((await deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: `bench-a-${w}` } })).id);
  const workspaces = [t.a.workspaceId, t.b.workspaceId];
  for (let w = workspaces.length; w < maxC; w++) workspaces.push((await seedWorkspace(t.app, `BenchW${w}`)).workspaceId);
  const multiWs: string[] = [];
  for (let w = 0; w < maxC; w++) multiWs.push((await deps.prisma.task.create({ data: { workspaceId: workspaces[w]!, title: `bench-b-${w}` } })).id);

  const base = await pgClient(t.dbUrl);
  await base.query(`CREATE TABLE bench_baseline (id bigserial PRIMARY KEY, writer int NOT NULL, i int NOT NULL, payload jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp())`);
  await base.end();
  const conns: pg.Client[] = [];
  for (let w = 0; w < maxC; w++) conns.push(await pgClient(t.dbUrl));
  const insert = (w: number, i: number) =>
    conns[w]!.query('INSERT INTO bench_baseline (writer, i, payload) VALUES ($1, $2, $3)', [w, i, JSON.stringify({ i, t: Date.now() })]).then(() => undefined);
  let errors = 0;
  const event = (i: number) => ({ type: 'NOTE' as const, actor: { kind: 'SYSTEM' as const }, payload: { i, t: Date.now() } });
  const guarded = (f: (w: number, i: number) => Promise<unknown>) => async (w: number, i: number) => {
    try {
      await f(w, i);
    } catch (e) {
      if (++errors <= 3) console.error(`  append failed: ${(e as Error).message.split('\n')[0]}`);
    }
  };
  const append = (tasks: string[]) => guarded((w, i) => appendNow(deps, tasks[w]!, [event(i)]));
  const transact = (tasks: string[]) => guarded((w, i) => transactWithEvents(deps, async (_tx, emit) => emit(tasks[w]!, event(i))));
  // 0 baseline, 1 append (same workspace), 2 append (workspace per writer), 3 transaction (same workspace).
  const paths = [insert, append(sameWs), append(multiWs), transact(sameWs)];
  // Warm-up of every path at every concurrency (not measured): JIT, pools, plans, caches.
  for (const c of CFG.concurrencies) for (const f of paths) await runLoad(c, c * 5, 5_000, f);
  errors = 0;

  const cases: ThroughputCase[] = [];
  for (const c of CFG.concurrencies) {
    const rounds: ThroughputRound[] = [];
    for (let r = 0; r < CFG.throughputRounds; r++) {
      // The order rotates per round, so drift and warm caches favour no path.
      const order = paths.map((_, k) => (k + r) % paths.length);
      const res: Record<number, { perSec: number; errors: number }> = {};
      for (const k of order) {
        errors = 0;
        const out = await runLoad(c, CFG.opsPerRound, CFG.maxRoundMs, paths[k]!);
        res[k] = { perSec: out.perSec * (k === 0 ? 1 : (out.ops - errors) / Math.max(1, out.ops)), errors };
      }
      rounds.push({
        baselinePerSec: res[0]!.perSec, samePerSec: res[1]!.perSec, multiPerSec: res[2]!.perSec, txPerSec: res[3]!.perSec,
        sameErrors: res[1]!.errors, multiErrors: res[2]!.errors + res[3]!.errors,
      });
    }
    cases.push({ concurrency: c, rounds });
    const f = throughputFigures({ concurrency: c, rounds });
    process.stderr.write(`  throughput c=${c} done: append ${fmt(f.sameRatio, 2)}× / ${fmt(f.multiRatio, 2)}×, transaction ${fmt(f.txRatio, 2)}× of bare INSERTs\n`);
  }
  await Promise.all(conns.map((c) => c.end()));
  return { cases, taskIds: [...sameWs, ...multiWs], workspaceIds: workspaces };
}

/** Seq and position counts of the log, per bench task and per workspace (checked for gaps and duplicates). */
async function logCounts(t: TestApp, taskIds: string[], workspaceIds: string[]): Promise<LogCount[]> {
  const c = await pgClient(t.dbUrl);
  try {
    const tasks = await c.query<{ id: string; events: number; distinct: number; max: number }>(
      `SELECT task_id::text AS id, count(*)::int AS events, count(DISTINCT seq)::int AS distinct, max(seq)::int AS max
         FROM task_events WHERE task_id = ANY($1::uuid[]) GROUP BY task_id`,
      [taskIds],
    );
    const ws = await c.query<{ id: string; events: number; distinct: number; max: number }>(
      `SELECT workspace_id::text AS id, count(*)::int AS events, count(DISTINCT position)::int AS distinct, max(position)::int AS max
         FROM task_events WHERE workspace_id = ANY($1::uuid[]) GROUP BY workspace_id`,
      [workspaceIds],
    );
    return [...tasks.rows.map((r) => ({ scope: 'task' as const, ...r })), ...ws.rows.map((r) => ({ scope: 'workspace' as const, ...r }))];
  } finally {
    await c.end();
  }
}

// ---------------------------------------------------------------------------------------------
// 2. Publish→receive latency (client process)

async function benchLatency(t: TestApp): Promise<{ cases: LatencyCase[]; hub: Record<number, Record<string, number>>; taskIds: string[] }> {
  const relay = await startRelay(t.dbUrl);
  const cases: ClientJob['cases'] = [];
  for (const n of CFG.subscriberCounts) {
    const task = await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: `bench-lat-${n}` } });
    cases.push({ subscribers: n, taskId: task.id, taskGid: globalTaskId(task.id) });
  }
  const job: ClientJob = {
    dbUrl: t.dbUrl,
    graphqlWsUrl: t.url.replace(/^http/, 'ws') + '/graphql',
    relayUrl: relay.url,
    token: t.a.ownerToken,
    ratePerSec: CFG.ratePerSec,
    segmentMs: CFG.segmentMs,
    rounds: CFG.latencyRounds,
    burstEvents: CFG.burstEvents,
    cases,
  };
  const child = fork(new URL('./channel/subscribers.ts', import.meta.url).pathname, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const hub: Record<number, Record<string, number>> = {};
  const counters = () => Object.fromEntries(HUB_COUNTERS.map((k) => [k, t.app.deps.hub.stats[k]]));
  const startedAt: Record<number, Record<string, number>> = {};
  try {
    const result = await new Promise<LatencyCase[]>((resolve, reject) => {
      child.on('message', (m: ClientMessage) => {
        if (m.type === 'mark' && m.phase === 'start') startedAt[m.subscribers] = counters();
        else if (m.type === 'mark') {
          const now = counters();
          hub[m.subscribers] = Object.fromEntries(HUB_COUNTERS.map((k) => [k, now[k]! - startedAt[m.subscribers]![k]!]));
          process.stderr.write(`  latency n=${m.subscribers} done\n`);
        } else if (m.type === 'result') resolve(m.latency);
        else reject(new Error(`client process: ${m.message}`));
      });
      child.on('exit', (code) => reject(new Error(`client process exited with ${code}`)));
      child.send(job);
    });
    return { cases: result, hub, taskIds: cases.map((c) => c.taskId) };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await relay.close();
  }
}

// ---------------------------------------------------------------------------------------------

/** The figures the event channel aims at, each beside its same-run baseline. */
function channelTargets(r: ChannelResults): Target[] {
  const out: Target[] = [];
  for (const c of r.throughput) {
    const f = throughputFigures(c);
    const base = `bare INSERT ${fmt(f.base, 0)} rows/s`;
    out.push({ name: `append, ${c.concurrency} writer(s), one workspace ÷ bare INSERT`, value: f.sameRatio, unit: '×', aim: '≥', bound: 0.5, baseline: base });
    out.push({ name: `append, ${c.concurrency} writer(s), a workspace each ÷ bare INSERT`, value: f.multiRatio, unit: '×', aim: '≥', bound: 0.5, baseline: base });
  }
  for (const c of r.latency) {
    const f = latencyFigures(c);
    out.push({ name: `publish→receive p99, ${c.subscribers} subscriber(s)`, value: f.appP99, unit: 'ms', aim: '≤', bound: +(f.baseP99 + 10).toFixed(1), baseline: `bare relay p99 ${fmt(f.baseP99, 1)} ms + 10 ms` });
    out.push({ name: `delivered events/s, ${c.subscribers} subscriber(s) ÷ bare relay`, value: f.deliveredRatio, unit: '×', aim: '≥', bound: 0.5, baseline: `bare relay ${fmt(f.baseDelivered, 0)} deliveries/s` });
  }
  if (r.scale) {
    const f = scaleFigures(r.scale);
    const n = `${(r.scale.large.events / 1e6).toLocaleString('en')} M`;
    for (const w of r.scale.config.writers) {
      out.push({ name: `append rate at ${n} events, ${w} writer(s) (slowdown)`, value: f.appendRatio[w]!, unit: '×', aim: '≤', bound: 1.2, baseline: `${fmt(f.append[w]!.small, 0)} events/s at 10 k events` });
    }
    out.push({ name: `catch-up read p50 at ${n} events (slowdown)`, value: f.read.ratioP50, unit: '×', aim: '≤', bound: 1.2, baseline: `${fmt(f.read.smallP50, 2)} ms at 10 k events` });
  }
  return out;
}

async function main(): Promise<number> {
  const started = performance.now();
  const t = await startTestApp('bench', { rateLimitPerMinute: 10_000_000 });
  let results: ChannelResults;
  let hub: Record<number, Record<string, number>> = {};
  let pgVersion = '';
  try {
    const c = await pgClient(t.dbUrl);
    const v = await c.query<{ v: string; f: string; s: string }>(
      "SELECT current_setting('server_version') AS v, current_setting('fsync') AS f, current_setting('synchronous_commit') AS s",
    );
    pgVersion = `PostgreSQL ${v.rows[0]!.v} (fsync=${v.rows[0]!.f}, synchronous_commit=${v.rows[0]!.s})`;
    await c.end();
    process.stderr.write(`bench:channel (${CFG.mode}) on ${pgVersion}\n`);
    const tp = await benchThroughput(t);
    const lat = await benchLatency(t);
    hub = lat.hub;
    results = { throughput: tp.cases, latency: lat.cases, log: await logCounts(t, [...tp.taskIds, ...lat.taskIds], tp.workspaceIds) };
  } finally {
    await t.close();
  }
  results.scale = await benchScale(SCALE, (s) => process.stderr.write(`${s}\n`));
  const planted = plantRequested();
  if (planted) results = plantChannel(results, planted);
  const totalS = (performance.now() - started) / 1000;

  const out: string[] = [''];
  out.push(`Atelier event channel benchmark (${CFG.mode}) — ${pgVersion}, node ${process.version}`);
  out.push('');
  out.push(`1. Append throughput: appendNow (1 event per call, sequenced and notified after commit) vs autocommit single-row INSERT`);
  out.push(`   on one dedicated connection per writer; ${CFG.throughputRounds} rounds per concurrency (up to ${CFG.opsPerRound} ops or ${CFG.maxRoundMs / 1000} s each), the four paths`);
  out.push(`   in rotating order after a warm-up of each; figures are medians over rounds.`);
  out.push(`   (a) same workspace: each writer appends to its own task, all in one workspace; (b) one workspace per writer;`);
  out.push(`   (c) a state change with its event: transactWithEvents (Prisma interactive transaction), same workspace as (a).`);
  out.push(`   note: the app's Prisma pool holds at most ${APP_POOL_MAX} connections, so appends above that concurrency queue for one.`);
  out.push('');
  out.push(
    table(
      ['concurrency', 'baseline rows/s', '(a) events/s', '(a) ratio', '(b) events/s', '(b) ratio', '(c) tx/s', '(c) ratio'],
      results.throughput.map((c) => {
        const f = throughputFigures(c);
        return [String(c.concurrency), fmt(f.base, 0), fmt(f.same, 0), fmt(f.sameRatio, 2), fmt(f.multi, 0), fmt(f.multiRatio, 2), fmt(f.tx, 0), fmt(f.txRatio, 2)];
      }),
    ),
  );
  out.push('');
  out.push(`2. Publish→receive latency, ${CFG.ratePerSec} events/s, ${CFG.latencyRounds} rounds of ${CFG.segmentMs / 1000} s per path, alternating which goes first.`);
  out.push(`   Producer and subscribers in a client process; server and relay in this process (both paths cross the same processes):`);
  out.push(`   app      = appendNow in the client process → sequencer + NOTIFY → hub (LISTEN + log read) → graphql-ws → N clients;`);
  out.push(`   baseline = INSERT … + pg_notify in one statement in the client process → relay (LISTEN, payload forwarded) → WebSocket → N clients.`);
  out.push(`   Timed in the client process from just before the producer's call to receipt; p50/p99 are medians over rounds.`);
  out.push('');
  out.push(
    table(
      ['subscribers', 'events/round', 'app p50 ms', 'app p99 ms', 'base p50 ms', 'base p99 ms', 'ratio p50', 'ratio p99', 'app delivered/s', 'base delivered/s', 'ratio', 'hub reads/notifications/polls'],
      results.latency.map((c) => {
        const f = latencyFigures(c);
        const h = hub[c.subscribers];
        return [
          String(c.subscribers), String(c.eventsPerRound), fmt(f.appP50, 2), fmt(f.appP99, 2), fmt(f.baseP50, 2), fmt(f.baseP99, 2), fmt(f.ratioP50, 1), fmt(f.ratioP99, 1),
          fmt(f.appDelivered, 0), fmt(f.baseDelivered, 0), fmt(f.deliveredRatio, 2),
          h ? `${h.topicReads}/${h.notifications}/${h.polls}` : 'n/a',
        ];
      }),
    ),
  );
  if (results.scale) {
    const s = results.scale;
    const f = scaleFigures(s);
    out.push('');
    out.push(`3. Growth: the same appends and catch-up reads on a log of ${s.small.events.toLocaleString('en')} and of ${s.large.events.toLocaleString('en')} events (one database each,`);
    out.push(`   loaded in bulk: ${s.small.tableMB.toFixed(0)} MB and ${s.large.tableMB.toFixed(0)} MB with indexes), ${s.config.rounds} interleaved rounds. Appends: appendNow into the workspace`);
    out.push(`   that holds the log; catch-up: a reader resuming 1,000 events back reads them in the feed's pages of 256.`);
    out.push('');
    out.push(
      table(
        ['figure', 'small log', 'large log', 'large ÷ small'],
        [
          ...s.config.writers.map((w) => [`append events/s, ${w} writer(s)`, fmt(f.append[w]!.small, 0), fmt(f.append[w]!.large, 0), fmt(f.appendRatio[w]!, 2)]),
          ['catch-up read p50 ms', fmt(f.read.smallP50, 2), fmt(f.read.largeP50, 2), fmt(f.read.ratioP50, 2)],
          ['catch-up read p99 ms', fmt(f.read.smallP99, 2), fmt(f.read.largeP99, 2), fmt(f.read.ratioP99, 2)],
        ],
      ),
    );
  }
  out.push('');
  out.push(`total ${totalS.toFixed(1)} s`);
  console.log(out.join('\n'));
  console.log(targetLines('bench:channel', channelTargets(results)).join('\n'));
  const violations = checkChannel(results);
  const gates = channelGates(results);
  const code = verdict('bench:channel', violations, gates, planted);
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      mode: CFG.mode,
      postgres: pgVersion,
      node: process.version,
      totalSeconds: round(totalS, 1),
      throughput: results.throughput.map((c) => {
        const f = throughputFigures(c);
        return { concurrency: c.concurrency, rounds: c.rounds.length, baselineRowsPerSec: round(f.base, 1), sameWorkspace: { eventsPerSec: round(f.same, 1), ratio: round(f.sameRatio, 3) }, multiWorkspace: { eventsPerSec: round(f.multi, 1), ratio: round(f.multiRatio, 3) }, transaction: { perSec: round(f.tx, 1), ratio: round(f.txRatio, 3) } };
      }),
      latency: results.latency.map((c) => {
        const f = latencyFigures(c);
        return { subscribers: c.subscribers, rounds: c.rounds.length, eventsPerRound: c.eventsPerRound, app: { p50: round(f.appP50, 3), p99: round(f.appP99, 3), deliveredPerSec: round(f.appDelivered, 0) }, baseline: { p50: round(f.baseP50, 3), p99: round(f.baseP99, 3), deliveredPerSec: round(f.baseDelivered, 0) }, ratioP50: round(f.ratioP50, 3), ratioP99: round(f.ratioP99, 3), deliveredRatio: round(f.deliveredRatio, 3), hub: hub[c.subscribers] };
      }),
      scale: results.scale ? { small: { events: results.scale.small.events, mb: round(results.scale.small.tableMB, 0) }, large: { events: results.scale.large.events, mb: round(results.scale.large.tableMB, 0) }, ...scaleFigures(results.scale) } : undefined,
      targets: channelTargets(results).map((x) => ({ ...x, value: round(x.value, 3) })),
      gates: gates.map((g) => ({ ...g, value: round(g.value, 3) })),
      violations,
    })}`,
  );
  return code;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
