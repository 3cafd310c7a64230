// bench:channel's client process (forked by test/bench/channel.ts): the producer and the
// subscribers of the latency cases, in a process of their own, as a worker and browsers are in
// production. Both paths are timed here, on one clock, from just before the producer's call to the
// subscriber's receipt:
//   app      appendNow on this process's own pool (one statement; its notifier sequences and
//            notifies after commit) → the server process's hub (LISTEN, reads the log) → graphql-ws
//            → N clients;
//   baseline one autocommit INSERT … + pg_notify on a plain connection → the relay in the server
//            process (LISTEN, payload written as is) → plain WebSocket → N clients.
// Rounds alternate which path goes first (ABBA…); the parent takes medians over rounds.
import { performance } from 'node:perf_hooks';
import { createClient, type Client as WsClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { EventNotifier } from '../../../server/channel/notifier.ts';
import { appendNow } from '../../../server/channel/unit-of-work.ts';
import { createPrisma } from '../../../server/db/client.ts';
import { createLogger } from '../../../server/log.ts';
import { percentile } from '../stats.ts';
import { pause, reached } from '../../helpers/wait.ts';
import type { LatencyCase, PathStats } from './checks.ts';
import { RELAY_CHANNEL } from './relay.ts';

export type ClientJob = {
  dbUrl: string;
  graphqlWsUrl: string;
  relayUrl: string;
  token: string;
  ratePerSec: number;
  segmentMs: number;
  rounds: number;
  /** Events per delivery burst (sent as fast as BURST_PRODUCERS producers can). */
  burstEvents: number;
  cases: { subscribers: number; taskId: string; taskGid: string }[];
};
export type ClientMessage = { type: 'mark'; subscribers: number; phase: 'start' | 'end' } | { type: 'result'; latency: LatencyCase[] } | { type: 'error'; message: string };

/**
 * How long every subscriber may take to receive what was sent: a liveness guard, not a measure
 * (the latencies are). With 1,000 sockets in one client process a segment is 150,000 deliveries,
 * which both paths need well over 30 s to drain on a busy 2-core machine, so it grows with N.
 */
const receiveTimeoutMs = (subscribers: number) => Math.max(30_000, subscribers * 60);
/** Concurrent producers of a delivery burst (as several workers would write at once). */
const BURST_PRODUCERS = 4;
const send = (m: ClientMessage) => new Promise<void>((r) => process.send!(m, undefined, {}, () => r()));

/** Calls `fire(i)` at a steady rate for `durationMs`; waits for all of them. */
async function steady(ratePerSec: number, durationMs: number, fire: (i: number) => Promise<void>): Promise<number> {
  const total = Math.max(1, Math.round((ratePerSec * durationMs) / 1000));
  const start = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / ratePerSec - performance.now();
    // The producer's schedule: the i-th call goes out at its slot of the steady rate.
    if (wait > 1) await pause(wait);
    inflight.push(fire(i));
  }
  await Promise.all(inflight);
  return total;
}

type Sub = { ids: number[]; lat: Map<number, number[]>; error?: string };
const stats = (xs: number[], expected: number): PathStats => ({ p50: percentile(xs, 50), p99: percentile(xs, 99), samples: xs.length, expected });

async function runCase(job: ClientJob, deps: Parameters<typeof appendNow>[0], producer: pg.Client, c: ClientJob['cases'][number]): Promise<LatencyCase> {
  const n = c.subscribers;
  const errors: string[] = [];
  // App subscribers: graphql-ws, one socket each, taskEvents from the start of the task's log.
  const app: Sub[] = [];
  const clients: WsClient[] = [];
  const connected: Promise<void>[] = [];
  for (let k = 0; k < n; k++) {
    const sub: Sub = { ids: [], lat: new Map() };
    app.push(sub);
    const client = createClient({ url: job.graphqlWsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${job.token}` }, lazy: false, retryAttempts: 0 });
    clients.push(client);
    connected.push(new Promise<void>((r) => client.on('connected', () => r())));
    client.subscribe<{ taskEvents: { seq: number; payload: { r?: number; t?: number } | null } }>(
      { query: 'subscription($taskId: ID!) { taskEvents(taskId: $taskId, after: 0) { seq payload } }', variables: { taskId: c.taskGid } },
      {
        next: (res) => {
          const at = performance.now();
          if (res.errors?.length) sub.error = JSON.stringify(res.errors).slice(0, 200);
          const e = res.data?.taskEvents;
          if (!e) return;
          sub.ids.push(e.seq);
          const p = e.payload;
          if (p && typeof p.r === 'number' && typeof p.t === 'number') (sub.lat.get(p.r) ?? sub.lat.set(p.r, []).get(p.r)!).push(at - p.t);
        },
        error: (e) => void (sub.error = String((e as Error)?.message ?? JSON.stringify(e)).slice(0, 200)),
        complete: () => {},
      },
    );
  }
  // Baseline subscribers: plain WebSockets to the relay.
  const base: Sub[] = [];
  const sockets: WebSocket[] = [];
  for (let k = 0; k < n; k++) {
    const sub: Sub = { ids: [], lat: new Map() };
    base.push(sub);
    const ws = new WebSocket(job.relayUrl);
    sockets.push(ws);
    ws.on('message', (data) => {
      const at = performance.now();
      const p = JSON.parse(String(data)) as { id: number; r: number; t: number };
      sub.ids.push(p.id);
      if (p.r >= 0) (sub.lat.get(p.r) ?? sub.lat.set(p.r, []).get(p.r)!).push(at - p.t);
    });
    ws.on('error', (e) => void (sub.error = e.message));
    connected.push(new Promise<void>((r) => ws.once('open', () => r())));
  }
  await Promise.all(connected);

  let appLast = 0;
  let baseLast = 0;
  const appOne = async (payload: Record<string, unknown>) => {
    const out = await appendNow(deps, c.taskId, [{ type: 'NOTE', actor: { kind: 'SYSTEM' }, payload }]);
    appLast = Math.max(appLast, ...out.map((e) => e.seq));
  };
  let nextId = 0;
  const baseOne = async (r: number, t: number) => {
    const id = ++nextId;
    const body = JSON.stringify({ id, r, t });
    await producer.query(`WITH i AS (INSERT INTO bench_relay_events (payload) VALUES ($1::text::jsonb) RETURNING id) SELECT pg_notify('${RELAY_CHANNEL}', $1::text) FROM i`, [body]);
    baseLast = Math.max(baseLast, id);
  };
  // Primers (not timed): once every subscriber has one, every subscription is live.
  await appOne({ primer: true });
  await baseOne(-1, 0);
  const caughtUp = () => reached(() => app.every((s) => s.ids.length >= appLast || s.error) && base.every((s) => s.ids.length >= baseLast || s.error), { timeoutMs: receiveTimeoutMs(n), intervalMs: 5 });
  if (!(await caughtUp())) errors.push('not every subscriber received the primers');

  const rounds: LatencyCase['rounds'] = [];
  let events = 0;
  for (let r = 0; r < job.rounds; r++) {
    const order = r % 2 === 0 ? (['app', 'base'] as const) : (['base', 'app'] as const);
    for (const path of order) {
      events = await steady(job.ratePerSec, job.segmentMs, (i) => {
        const t = performance.now();
        return path === 'app' ? appOne({ r, i, t }) : baseOne(r, t);
      });
      if (!(await caughtUp())) errors.push(`round ${r}: ${path} subscribers did not receive every event within ${receiveTimeoutMs(n) / 1000} s`);
    }
    const pooled = (subs: Sub[]) => subs.flatMap((s) => s.lat.get(r) ?? []);
    rounds.push({ round: r, order: order[0] === 'app' ? 'app-first' : 'base-first', app: stats(pooled(app), events * n), base: stats(pooled(base), events * n) });
  }
  // Delivery throughput: a burst of events sent as fast as the producers can, timed until every
  // subscriber has every one of them; two rounds per path, alternating which goes first.
  const delivery: LatencyCase['delivery'] = { app: [], base: [], eventsPerBurst: job.burstEvents };
  for (let r = 0; r < 2; r++) {
    for (const path of r % 2 === 0 ? (['app', 'base'] as const) : (['base', 'app'] as const)) {
      let next = 0;
      const start = performance.now();
      await Promise.all(
        Array.from({ length: BURST_PRODUCERS }, async () => {
          while (next < job.burstEvents) {
            next++;
            await (path === 'app' ? appOne({ burst: r }) : baseOne(-2, 0));
          }
        }),
      );
      if (!(await caughtUp())) errors.push(`burst ${r}: ${path} subscribers did not receive every event within ${receiveTimeoutMs(n) / 1000} s`);
      delivery[path].push((job.burstEvents * n) / ((performance.now() - start) / 1000));
    }
  }
  for (const [k, s] of app.entries()) if (s.error) errors.push(`app subscriber ${k}: ${s.error}`);
  for (const [k, s] of base.entries()) if (s.error) errors.push(`relay subscriber ${k}: ${s.error}`);
  await Promise.all(clients.map((x) => x.dispose()));
  for (const s of sockets) s.terminate();
  return { subscribers: n, eventsPerRound: events, rounds, appReceived: app.map((s) => s.ids), appLast, baseReceived: base.map((s) => s.ids), baseLast, delivery, errors };
}

async function run(job: ClientJob) {
  const prisma = createPrisma(job.dbUrl, { max: 10 });
  const deps = { prisma, notifier: new EventNotifier(prisma, createLogger('warn')) };
  const producer = new pg.Client({ connectionString: job.dbUrl });
  await producer.connect();
  const latency: LatencyCase[] = [];
  try {
    for (const c of job.cases) {
      await send({ type: 'mark', subscribers: c.subscribers, phase: 'start' });
      latency.push(await runCase(job, deps, producer, c));
      await send({ type: 'mark', subscribers: c.subscribers, phase: 'end' });
    }
    await deps.notifier.drain();
  } finally {
    await producer.end();
    await prisma.$disconnect();
  }
  await send({ type: 'result', latency });
}

// Nothing outlives the benchmark: a parent that goes away takes this process with it.
process.on('disconnect', () => process.exit(1));
process.once('message', (job: ClientJob) => {
  run(job).then(
    () => process.exit(0),
    async (e) => {
      await send({ type: 'error', message: String((e as Error)?.stack ?? e) });
      process.exit(1);
    },
  );
});
