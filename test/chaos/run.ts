// npm run chaos [-- --quick] [-- --seed N] [-- --tasks N] [-- --keep]
//
// The whole product as separate processes on a fresh database — the provider service (with faults:
// failures, lost submit answers, duplicate, out-of-order and missing callbacks), 2 API processes and
// 3 workers, the offline model — driven by a scripted person over GraphQL (HTTP + graphql-ws) while
// a seeded schedule SIGKILLs workers, API processes and the provider. When every task has ended (or
// the deadline passed) the chaos stops, the system settles, and the invariants are checked in SQL and
// against what every subscriber session received. Prints each invariant with its count, recovery
// figures and counts; exit 1 on any violation. --quick: ~20 tasks, about 3 minutes (CI).
import { mkdirSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { ensureServerBuild } from '../../server/build.mjs';
import { createTestDatabase } from '../helpers/db.ts';
import { Api, ApiStats, DOCS, fromGid } from './api.ts';
import { Chaos } from './chaos.ts';
import { runChecks, type Check } from './checks.ts';
import { Cluster } from './cluster.ts';
import { Person } from './person.ts';
import { measureRecovery, recoveryVerdict, summarize } from './recovery.ts';
import { createRng } from './rng.ts';
import { pause, reached, waitFor } from '../helpers/wait.ts';
import { checkSessions, Subscriber } from './streams.ts';

const argv = process.argv.slice(2);
const arg = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const QUICK = argv.includes('--quick');
const SEED = Number(arg('--seed') ?? 7);
const LEASE_MS = 2000;
const CFG = {
  tasks: Number(arg('--tasks') ?? (QUICK ? 20 : 220)),
  inFlight: QUICK ? 10 : 20,
  /** From the first request until every task has ended (then the chaos stops either way). */
  driveMs: QUICK ? 105_000 : 17 * 60_000,
  /** Requests are spread over this share of the drive (the rest is for the last tasks to end). */
  askOver: QUICK ? 0.5 : 0.35,
  settleMs: 60_000,
  killGapMs: (QUICK ? [1000, 3000] : [2000, 5000]) as [number, number],
  hardLimitMs: QUICK ? 6 * 60_000 : 35 * 60_000,
};
const T0 = Date.now();
const log = (s: string) => process.stdout.write(`[${((Date.now() - T0) / 1000).toFixed(1).padStart(6)} s] ${s}\n`);

// The offline model, and nothing from the caller's environment that would change the product.
for (const k of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ATELIER_RUNTIME_PLUGIN', 'ATELIER_CRASH_AT', 'DATABASE_URL']) delete process.env[k];

// The cluster's processes run the compiled server, as npm start does (built here when stale).
await ensureServerBuild(new URL('../../', import.meta.url).pathname);
const rng = createRng(SEED);
const db = await createTestDatabase(`chaos_${SEED}`);
const pool = new pg.Pool({ connectionString: db.url, max: 3 });
pool.on('error', (e) => log(`harness database connection: ${e.message}`)); // an idle client ended (the drop at the end)
const cluster = new Cluster({
  databaseUrl: db.url,
  apis: 2,
  workers: 3,
  secret: `chaos-provider-secret-${SEED}-0123456789`,
  providerEnv: {
    ATELIER_SIM_LATENCY_MS: 'IMAGE=300,VIDEO=1500,AUDIO=600,MODEL_3D=1500',
    ATELIER_SIM_FAILURE_RATE: '0.08',
    ATELIER_SIM_UNKNOWN_SUBMIT_RATE: '0.05',
    ATELIER_SIM_DUPLICATE_CALLBACK_RATE: '0.15',
    ATELIER_SIM_OUT_OF_ORDER_RATE: '0.1',
    ATELIER_SIM_MISSING_CALLBACK_RATE: '0.1',
    ATELIER_SIM_SEED: String(SEED),
  },
  runtimeEnv: {
    ATELIER_LEASE_MS: String(LEASE_MS),
    ATELIER_WATCHDOG_MS: '250',
    ATELIER_STALE_QUEUED_MS: '3000',
    ATELIER_RECONCILE_MS: '500',
    ATELIER_RATE_LIMIT_PER_MINUTE: '1000000',
  },
  log,
});
const hardLimit = setTimeout(() => {
  log(`hard time limit (${CFG.hardLimitMs / 60_000} min) reached: giving up`);
  void cleanup().finally(() => process.exit(1));
}, CFG.hardLimitMs);
let cleaned = false;
async function cleanup() {
  if (cleaned) return;
  cleaned = true;
  await cluster.stopAll().catch(() => {});
  await pool.end().catch(() => {});
  if (!argv.includes('--keep')) await db.drop().catch((e) => log(`drop failed: ${(e as Error).message}`));
  else log(`database kept: ${db.url}`);
  cluster.cleanup();
}
process.on('SIGINT', () => void cleanup().finally(() => process.exit(130)));

let exitCode = 1;
try {
  exitCode = await main();
} catch (e) {
  log(`chaos run failed: ${(e as Error).stack ?? e}`);
} finally {
  clearTimeout(hardLimit);
  await cleanup();
}
process.exit(exitCode);

async function main(): Promise<number> {
  log(`chaos run (${QUICK ? 'quick' : 'full'}), seed ${SEED}: ${CFG.tasks} tasks, ≤ ${CFG.inFlight} at once; lease ${LEASE_MS} ms`);
  await cluster.start();
  log(`up: provider, ${cluster.apis.length} APIs (ports ${cluster.apis.map((a) => a.port).join(', ')}), ${cluster.workers.length} workers`);
  const api = new Api(cluster, rng.fork('api'), ApiStats());
  const wsGid = (await api.ok<{ viewer: { workspaces: { id: string }[] } }>('viewer', DOCS.viewer)).viewer.workspaces[0]!.id;
  const ws = fromGid(wsGid);
  const person = new Person(api, rng.fork('person'), wsGid, SEED);
  const subs = [
    new Subscriber('person', cluster, rng.fork('feed'), 'feed', [15_000, 45_000], (e) => person.onEvent(e)),
    new Subscriber('observer', cluster, rng.fork('observer'), 'events', [10_000, 30_000]),
  ];
  for (const s of subs) s.start();
  await waitFor(() => subs.every((s) => s.lastCursor !== null), 'every subscriber to hold a cursor', { timeoutMs: 120_000, intervalMs: 50 });

  const chaos = new Chaos(cluster, pool, rng.fork('chaos'), { gapMs: CFG.killGapMs, weights: { worker: 0.65, api: 0.2, provider: 0.15 }, log });
  chaos.start();
  const q1 = async <T>(sql: string): Promise<T> => (await pool.query(sql, [ws])).rows[0] as T;
  const state = () =>
    q1<{ live: number; ended: number; jobs: number; open: number; pending: number }>(
      `SELECT (SELECT count(*)::int FROM tasks WHERE workspace_id = $1::uuid AND status IN ('QUEUED', 'RUNNING', 'WAITING', 'PAUSED')) AS live,
              (SELECT count(*)::int FROM tasks WHERE workspace_id = $1::uuid AND status NOT IN ('QUEUED', 'RUNNING', 'WAITING', 'PAUSED')) AS ended,
              (SELECT count(*)::int FROM generation_jobs WHERE workspace_id = $1::uuid) AS jobs,
              (SELECT count(*)::int FROM generation_jobs WHERE workspace_id = $1::uuid AND status NOT IN ('SUCCEEDED', 'FAILED', 'CANCELLED')) AS open,
              (SELECT count(*)::int FROM approvals WHERE workspace_id = $1::uuid AND status = 'PENDING') AS pending`,
    );
  let sweeping = true;
  const sweeper = (async () => {
    while (sweeping) {
      // The person's sweep comes round every 3 s (cards a lost event never showed them).
      await pause(3000);
      await person.sweep(5000).catch(() => 0);
    }
  })();
  let lastReport = 0;
  const report = async (phase: string) => {
    if (Date.now() - lastReport < 15_000) return;
    lastReport = Date.now();
    const s = await state();
    log(`${phase}: ${person.mine.size} asked, ${s.live} live, ${s.ended} ended; jobs ${s.jobs} (${s.open} open); ${s.pending} cards pending; kills ${chaos.kills.length}`);
  };

  // Drive: keep up to inFlight tasks live until the target is reached, then wait for the rest.
  // Requests are spread over the first part of the drive, so the chaos meets work all along.
  const driveStart = Date.now();
  const spacingMs = (CFG.driveMs * CFG.askOver) / CFG.tasks;
  let nextAsk = driveStart;
  while (Date.now() - driveStart < CFG.driveMs) {
    const s = await state();
    if (person.mine.size >= CFG.tasks && s.live === 0) break;
    if (person.mine.size < CFG.tasks && s.live < CFG.inFlight && Date.now() >= nextAsk) {
      nextAsk = Date.now() + spacingMs;
      await person.ask();
    } else await pause(200); // the driver's pace: it looks again in 200 ms
    await report('drive');
  }
  log(`drive over after ${((Date.now() - driveStart) / 1000).toFixed(0)} s; stopping the chaos`);
  await chaos.stop();

  // Settle: every process is up again; in-flight jobs end, the person answers what is left.
  const settleStart = Date.now();
  const settled = await reached(
    async () => {
      const s = await state();
      if (s.live === 0 && s.open === 0 && s.pending === 0) return true;
      await report('settle');
      return false;
    },
    { timeoutMs: CFG.settleMs, intervalMs: 500 },
  );
  await person.finish(5000);
  sweeping = false;
  await sweeper;
  log(`settle ${settled ? 'done' : 'timed out'} after ${((Date.now() - settleStart) / 1000).toFixed(0)} s`);

  // The subscribers must have everything up to the head, then the sessions are compared with the log.
  // The last commits may still be landing: they catch up to the head until it stays where it was.
  // The head as any reader reads it: sequencing first what killed processes committed and never
  // sequenced (server/channel/sequencer.ts).
  const readHead = async () => Number((await q1<{ head: string }>(`SELECT head::text AS head FROM atelier_sequence_events(ARRAY[$1::uuid])`)).head);
  let head = await readHead();
  let caught = await Promise.all(subs.map((s) => s.catchUp(head, 20_000)));
  for (let round = 0; round < 10; round++) {
    const now = await readHead();
    if (now === head) break;
    head = now;
    caught = await Promise.all(subs.map((s) => s.catchUp(head, 20_000)));
  }
  for (const s of subs) await s.stop();
  const rows = (await pool.query<{ position: string; task_id: string; seq: number; type: string }>(`SELECT position::text, task_id, seq, type FROM task_events WHERE workspace_id = $1::uuid`, [ws])).rows;
  const stored = new Map(rows.map((r) => [Number(r.position), { taskId: r.task_id, seq: r.seq, type: r.type }]));
  const streams = checkSessions(subs, stored);
  subs.forEach((s, i) => !caught[i] && streams.problems.push(`${s.name} did not reach the head ${head} (at ${s.lastPos})`));

  const PLAN_OF = { posters: 'poster-series', image: 'image', 'quick-image': 'image', audio: 'audio', '3d': '3d', video: 'video', 'image-to-video': 'image-to-video' } as const;
  const asked = [...person.mine].map(([taskId, r]) => ({ taskId, plan: PLAN_OF[r.kind] }));
  const checks: Check[] = await runChecks(pool, ws, { userMessages: person.stats.messagesSent, tasks: person.mine.size, asked });
  checks.push({ name: 'streams exact per subscriber session (received = stored after its start cursor, no gap, no duplicate)', checked: streams.events, violations: streams.problems });
  checks.push({
    name: 'retried requests answered as the first (no INTERNAL, no IDEMPOTENCY_KEY_REUSED), no process crashed by itself',
    checked: api.stats.requests,
    violations: [...api.stats.internal, ...api.stats.keyReused.map((k) => `key reused: ${k}`), ...cluster.unexpectedExits.map((x) => x.slice(0, 1500)), ...person.stats.errors, ...person.stats.approvals.errors],
  });
  const recovery = await measureRecovery(pool, chaos.kills);
  const verdict = recoveryVerdict(recovery, LEASE_MS + 2000);

  // --- Report.
  const counts = async (sql: string) => Object.fromEntries((await pool.query<{ k: string; n: number }>(sql, [ws])).rows.map((r) => [r.k, r.n]));
  const tasksBy = await counts(`SELECT status::text AS k, count(*)::int AS n FROM tasks WHERE workspace_id = $1::uuid GROUP BY 1 ORDER BY 1`);
  const plans = await counts(
    `SELECT COALESCE(substring(c.reason from 'offline plan [(](.*)[)]'), 'no plan') AS k, count(*)::int AS n
       FROM tasks t LEFT JOIN task_checklists c ON c.task_id = t.id AND c.version = 1 WHERE t.workspace_id = $1::uuid GROUP BY 1 ORDER BY 1`,
  );
  const followUps = (await q1<{ n: number }>(`SELECT count(*)::int AS n FROM tasks WHERE workspace_id = $1::uuid AND previous_round_id IS NOT NULL`)).n;
  const jobsBy = await counts(`SELECT status::text AS k, count(*)::int AS n FROM generation_jobs WHERE workspace_id = $1::uuid GROUP BY 1 ORDER BY 1`);
  const jobsKind = await counts(`SELECT kind::text AS k, count(*)::int AS n FROM generation_jobs WHERE workspace_id = $1::uuid GROUP BY 1 ORDER BY 1`);
  const approvalsBy = await counts(`SELECT kind::text || ':' || status::text AS k, count(*)::int AS n FROM approvals WHERE workspace_id = $1::uuid GROUP BY 1 ORDER BY 1`);
  const takeovers = (await q1<{ n: number }>(`SELECT count(*)::int AS n FROM task_events WHERE workspace_id = $1::uuid AND type = 'TURN_STARTED' AND (payload->>'takeover')::boolean`)).n;
  const killsBy = chaos.kills.reduce<Record<string, number>>((m, k) => ((m[k.role] = (m[k.role] ?? 0) + 1), m), {});
  const p = person.stats;
  const line = (o: Record<string, unknown>) => Object.entries(o).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
  console.log(`\n=== chaos run, seed ${SEED}, ${QUICK ? 'quick' : 'full'}: ${((Date.now() - T0) / 1000).toFixed(0)} s ===`);
  console.log(`tasks: ${rows.length ? Object.values(tasksBy).reduce((a, b) => a + b, 0) : 0} (${line(tasksBy)}); asked ${p.requests} (${line(p.outcomes)}; clarifications answered ${p.clarifyAnswered})`);
  console.log(`plans: ${line(plans)}; next rounds (a request routed to an ended task) ${followUps}`);
  console.log(`jobs: ${line(jobsBy)} — by kind: ${line(jobsKind)}`);
  console.log(`kills: ${chaos.kills.length} (${line(killsBy)}); worker kills holding turns: ${chaos.kills.filter((k) => k.held.length).length}, turns held ${recovery.held}; takeovers (TURN_STARTED takeover) ${takeovers}`);
  console.log(`reconnects: ${subs.map((s) => `${s.name} ${s.reconnects} (${s.sessions.length} sessions)`).join(', ')}; events streamed ${streams.events}, stored ${rows.length}`);
  console.log(`signals: ${Object.entries(p.signals).map(([k, v]) => `${k} ${v.sent} (applied ${v.applied}, refused ${v.refused})`).join(', ')}; resumes of runtime-paused tasks ${p.nudges.length}`);
  console.log(`approvals answered: ${p.approvals.answered} (${line(p.approvals.byKind)}; refused ${p.approvals.refused}, found by the sweep ${p.approvals.viaSweep}); stored: ${line(approvalsBy)}`);
  console.log(`requests: ${api.stats.requests}, resent after a dead API ${api.stats.networkRetries} (sendMessage answered "duplicate" ${p.duplicateReplies}), rate limited ${api.stats.rateLimited}`);
  console.log(`recovery after worker kills (lease ${LEASE_MS} ms):\n  kill → next event of the task:      ${summarize(recovery.nextEvent)}\n  kill → takeover TURN_STARTED:       ${summarize(recovery.takeover)}\n  lease expiry → takeover:            ${summarize(recovery.afterExpiry)}\n    expiry → wake-up sent (watchdog):  ${summarize(recovery.phases.detect)}\n    wake-up sent → fetched (pg-boss):  ${summarize(recovery.phases.pickup)}\n    fetched → TURN_STARTED (claim):    ${summarize(recovery.phases.claim)}`);
  if (recovery.noTakeover.length) console.log(`  held turns without takeover: ${recovery.noTakeover.length} (${recovery.noTakeover.slice(0, 5).map((x) => x.why).join('; ')})`);
  for (const l of verdict.lines) console.log(`  ${verdict.ok ? 'ok' : 'FAIL'}: ${l}`);
  if (p.nudges.length) console.log(`runtime pauses answered with RESUME: ${p.nudges.slice(0, 5).map((n) => `${n.taskId.slice(0, 8)}: ${n.reason}`).join('; ')}`);
  console.log('\ninvariants:');
  for (const c of checks) {
    console.log(`  ${c.violations.length ? 'FAIL' : 'ok  '} ${c.name}: ${c.checked} checked, ${c.violations.length} violation(s)`);
    for (const v of c.violations.slice(0, 8)) console.log(`       - ${v.replace(/\n/g, '\n         ')}`);
  }
  const failed = checks.some((c) => c.violations.length) || !verdict.ok;
  const dir = 'test-results/chaos';
  mkdirSync(dir, { recursive: true });
  const file = `${dir}/seed-${SEED}${QUICK ? '-quick' : ''}.json`;
  writeFileSync(file, JSON.stringify({ seed: SEED, quick: QUICK, tasksBy, jobsBy, killsBy, kills: chaos.kills, recovery, person: p, api: api.stats, checks, sessions: subs.flatMap((s) => s.sessions.map((x) => ({ ...x, received: x.received.length }))) }, null, 1));
  if (failed) for (const s of cluster.slots) writeFileSync(`${dir}/seed-${SEED}-${s.name}.log`, cluster.outputOf(s));
  console.log(`\n${failed ? 'FAILED' : 'passed'} (details: ${file}${failed ? ', process logs beside it' : ''})`);
  return failed ? 1 : 0;
}
