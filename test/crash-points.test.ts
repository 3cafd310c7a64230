// Crash points: the process is SIGKILLed at each named point of the paid path (order → submit →
// record → suspend → callback → wake) and of the step commit path, then replaced. After each, the
// task ends correctly with one order and one charge: one job row, one hold, one charge, one result
// object, one terminal state. The provider is a service of its own (it outlives the crashes), the
// worker and the API are separate processes, as in production.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { CRASH_POINTS, type CrashPoint } from '../server/crash-points.ts';
import { createTestDatabase } from './helpers/db.ts';
import { startServerProcess, type ServerProcess } from './helpers/process.ts';
import { startProviderProcess, type ProviderProcess } from './helpers/provider-process.ts';
import { eventually } from './helpers/produce.ts';

const SECRET = 'crash-points-test-secret-0123456789';
const API_POINTS: CrashPoint[] = ['callback.received', 'callback.applied'];

let provider: ProviderProcess;
let providerDir: string;
const running: ServerProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

before(async () => {
  providerDir = mkdtempSync(join(tmpdir(), 'atelier-crash-provider-'));
  // Quick images, every callback delivered once and in order: the faults here are the crashes.
  provider = await startProviderProcess({ dataDir: providerDir, secret: SECRET, env: { ATELIER_SIM_LATENCY_MS: '300' } });
});
after(async () => {
  await Promise.all(running.map((p) => p.stop('SIGKILL')));
  await provider.stop();
  rmSync(providerDir, { recursive: true, force: true });
});

async function runAt(point: CrashPoint) {
  const db = await createTestDatabase(`crash_${point.replace('.', '_')}`);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const apiPort = await freePort();
    const common = {
      DATABASE_URL: db.url,
      ATELIER_PROVIDER_URL: provider.url,
      ATELIER_PROVIDER_SECRET: SECRET,
      ATELIER_PROVIDER_CALLBACK_URL: `http://127.0.0.1:${apiPort}`,
      ATELIER_RUNTIME_PLUGIN: 'test/fixtures/generation-plugin.ts',
      ATELIER_LEASE_MS: '1500',
      ATELIER_WATCHDOG_MS: '200',
      ATELIER_STALE_QUEUED_MS: '2000',
    };
    const api = (crash?: CrashPoint) => startServerProcess({ ...common, PORT: String(apiPort), ...(crash ? { ATELIER_CRASH_AT: crash } : {}) }, 90_000, ['--api-only']);
    const worker = (crash?: CrashPoint) => startServerProcess({ ...common, ...(crash ? { ATELIER_CRASH_AT: crash } : {}) }, 90_000, ['--worker-only'], /Atelier worker running/);
    const inApi = API_POINTS.includes(point);
    let a = await api(inApi ? point : undefined);
    running.push(a);
    let w = await worker(inApi ? undefined : point);
    running.push(w);
    const created = await fetch(`${a.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${/Owner token[^\n]*\n\s+(atl_\S+)/.exec(a.output())![1]}` },
      body: JSON.stringify({ query: 'mutation($i: CreateTaskInput!) { createTask(input: $i) { task { id } } }', variables: { i: { workspaceId: await workspaceGid(client), title: `crash at ${point}` } } }),
    }).then((r) => r.json());
    assert.ok(created.data?.createTask, JSON.stringify(created));
    // The armed process dies at the point; its replacement (unarmed) takes over.
    const victim = inApi ? a : w;
    await eventually(() => victim.proc.signalCode === 'SIGKILL', `the process to die at ${point}`, 60_000).catch((e) => {
      throw new Error(`${(e as Error).message}\n--- api:\n${a.output()}\n--- worker:\n${w.output()}`);
    });
    assert.match(victim.output(), new RegExp(`crash point reached: ${point.replace('.', '\\.')}`));
    if (inApi) {
      a = await api();
      running.push(a);
    } else {
      w = await worker();
      running.push(w);
    }
    await eventually(async () => (await client.query(`SELECT status FROM tasks LIMIT 1`)).rows[0]?.status === 'COMPLETED', `the task to complete after a crash at ${point}`, 90_000);
    const q = async (sql: string) => (await client.query(sql)).rows;
    const jobs = await q(`SELECT id, status FROM generation_jobs`);
    assert.equal(jobs.length, 1, `one order after ${point}`);
    assert.equal(jobs[0].status, 'SUCCEEDED');
    const ledger = (await q(`SELECT kind, count(*)::int AS n, sum(amount_cents)::int AS cents FROM ledger_entries GROUP BY kind`)).map((r) => `${r.kind}:${r.n}:${r.cents}`).sort();
    assert.deepEqual(ledger, ['CHARGE:1:4', 'HOLD:1:4'], `one hold, one charge after ${point}`);
    assert.equal((await q(`SELECT count(*)::int AS n FROM workspace_objects WHERE kind = 'IMAGE'`))[0].n, 1, 'one result object');
    const ends = (await q(`SELECT payload FROM task_events WHERE type = 'TASK_STATUS_CHANGED'`)).filter((r) => ['COMPLETED', 'FAILED', 'CANCELLED'].includes(r.payload.to));
    assert.equal(ends.length, 1, 'one terminal state');
    // Gap-free log.
    const seqs = (await q(`SELECT seq FROM task_events ORDER BY seq`)).map((r) => Number(r.seq));
    assert.deepEqual(seqs, seqs.map((_, i) => i + 1));
  } finally {
    await Promise.all(running.splice(0).map((p) => p.stop('SIGKILL')));
    await client.end();
    await db.drop();
  }
}

async function workspaceGid(client: pg.Client): Promise<string> {
  const id = (await client.query('SELECT id FROM workspaces LIMIT 1')).rows[0].id as string;
  return Buffer.from(`Workspace:${id}`).toString('base64');
}

for (const point of CRASH_POINTS) {
  test(`SIGKILL at ${point}: the task completes with one order and one charge`, async () => {
    await runAt(point);
  });
}
