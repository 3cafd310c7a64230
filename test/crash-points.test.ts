// Crash points: the process is SIGKILLed at each named point of the paid path (order → submit →
// record → suspend → callback → wake) and of the step commit path, then replaced. After each, the
// task ends correctly with one order and one charge: one job row, one hold, one charge, one result
// object, one terminal state. The provider is a service of its own (it outlives the crashes), the
// worker and the API are separate processes, as in production.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { CRASH_POINTS, type CrashPoint } from '../server/crash-points.ts';
import { createTestDatabase } from './helpers/db.ts';
import { freePort, startServerProcess, type ServerProcess } from './helpers/process.ts';
import { startProviderProcess, type ProviderProcess } from './helpers/provider-process.ts';
import { eventually } from './helpers/produce.ts';
import { assetIdForJob } from '../server/store/objects/create-asset.ts';

const SECRET = 'crash-points-test-secret-0123456789';
const API_POINTS: CrashPoint[] = ['callback.received', 'callback.applied'];

let provider: ProviderProcess;
let providerDir: string;
let db: { url: string; drop(): Promise<void> };
let client: pg.Client;
let api0: ServerProcess;
let ownerToken: string;
const running: ServerProcess[] = [];


const common = (plugin = 'test/fixtures/generation-plugin.ts') => ({
  DATABASE_URL: db.url,
  ATELIER_PROVIDER_URL: provider.url,
  ATELIER_PROVIDER_SECRET: SECRET,
  ATELIER_RUNTIME_PLUGIN: plugin,
  ATELIER_LEASE_MS: '1500',
  ATELIER_WATCHDOG_MS: '200',
  ATELIER_STALE_QUEUED_MS: '2000',
});
const api = async (port: number, crash?: CrashPoint) => {
  const p = await startServerProcess({ ...common(), PORT: String(port), ...(crash ? { ATELIER_CRASH_AT: crash } : {}) }, 90_000, ['--api-only']);
  running.push(p);
  return p;
};
const worker = async (callbackPort: number, crash?: CrashPoint | `${CrashPoint}@${number}`, plugin?: string) => {
  const p = await startServerProcess(
    { ...common(plugin), ATELIER_PROVIDER_CALLBACK_URL: `http://127.0.0.1:${callbackPort}`, ...(crash ? { ATELIER_CRASH_AT: crash } : {}) },
    90_000,
    ['--worker-only'],
    /Atelier worker running/,
  );
  running.push(p);
  return p;
};

before(async () => {
  providerDir = mkdtempSync(join(tmpdir(), 'atelier-crash-provider-'));
  // Quick images, every callback delivered once and in order: the faults here are the crashes.
  provider = await startProviderProcess({ dataDir: providerDir, secret: SECRET, env: { ATELIER_SIM_LATENCY_MS: '300' } });
  db = await createTestDatabase('crashpoints');
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  // One API for the whole file (it bootstraps the workspace); each point brings its own processes.
  api0 = await api(await freePort());
  ownerToken = /Owner token[^\n]*\n\s+(atl_\S+)/.exec(api0.output())![1]!;
});
after(async () => {
  await Promise.all(running.map((p) => p.stop('SIGKILL')));
  await client?.end();
  await db?.drop();
  await provider?.stop();
  rmSync(providerDir, { recursive: true, force: true });
});

async function createTask(apiUrl: string, title: string): Promise<string> {
  const id = (await client.query('SELECT id FROM workspaces LIMIT 1')).rows[0].id as string;
  const created = await fetch(`${apiUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ownerToken}` },
    body: JSON.stringify({ query: 'mutation($i: CreateTaskInput!) { createTask(input: $i) { task { id } } }', variables: { i: { workspaceId: Buffer.from(`Workspace:${id}`).toString('base64'), title } } }),
  }).then((r) => r.json());
  assert.ok(created.data?.createTask, JSON.stringify(created));
  return Buffer.from(created.data.createTask.task.id, 'base64').toString('utf8').split(':')[1]!;
}

async function runAt(point: CrashPoint) {
  const mine: ServerProcess[] = [];
  try {
    const inApi = API_POINTS.includes(point);
    // A callback crash needs an API of its own (armed) that the worker's provider calls back.
    const apiPort = inApi ? await freePort() : Number(new URL(api0.url).port);
    let a = inApi ? await api(apiPort, point) : api0;
    if (inApi) mine.push(a);
    let w = await worker(apiPort, inApi ? undefined : point);
    mine.push(w);
    const taskId = await createTask(a.url, `crash at ${point}`);
    // The armed process dies at the point; its replacement (unarmed) takes over.
    const victim = inApi ? a : w;
    await eventually(() => victim.proc.signalCode === 'SIGKILL', `the process to die at ${point}`, 90_000).catch((e) => {
      throw new Error(`${(e as Error).message}\n--- api:\n${a.output()}\n--- worker:\n${w.output()}`);
    });
    assert.match(victim.output(), new RegExp(`crash point reached: ${point.replace('.', '\\.')}`));
    if (inApi) mine.push((a = await api(apiPort)));
    else mine.push((w = await worker(apiPort)));
    const q = async (sql: string) => (await client.query(sql, [taskId])).rows;
    await eventually(async () => (await q(`SELECT status FROM tasks WHERE id = $1`))[0]?.status === 'COMPLETED', `the task to complete after a crash at ${point}`, 120_000);
    const jobs = await q(`SELECT id, status FROM generation_jobs WHERE task_id = $1`);
    assert.equal(jobs.length, 1, `one order after ${point}`);
    assert.equal(jobs[0].status, 'SUCCEEDED');
    const ledger = (await q(`SELECT kind, count(*)::int AS n, sum(amount_cents)::int AS cents FROM ledger_entries WHERE task_id = $1 GROUP BY kind`)).map((r) => `${r.kind}:${r.n}:${r.cents}`).sort();
    assert.deepEqual(ledger, ['CHARGE:1:4', 'HOLD:1:4'], `one hold, one charge after ${point}`);
    assert.equal((await client.query(`SELECT count(*)::int AS n FROM workspace_objects WHERE id = $1`, [assetIdForJob(jobs[0].id)])).rows[0].n, 1, 'one result object');
    const ends = (await q(`SELECT payload FROM task_events WHERE task_id = $1 AND type = 'TASK_STATUS_CHANGED'`)).filter((r) => ['COMPLETED', 'FAILED', 'CANCELLED'].includes(r.payload.to));
    assert.equal(ends.length, 1, 'one terminal state');
    const seqs = (await q(`SELECT seq FROM task_events WHERE task_id = $1 ORDER BY seq`)).map((r) => Number(r.seq));
    assert.deepEqual(seqs, seqs.map((_, i) => i + 1), 'a gap-free log');
  } finally {
    await Promise.all(mine.filter((p) => p !== api0).map((p) => p.stop('SIGKILL')));
  }
}

for (const point of CRASH_POINTS) {
  test(`SIGKILL at ${point}: the task completes with one order and one charge`, { timeout: 300_000 }, async () => {
    await runAt(point);
  });
}

// A parallel fan-out: a setting, then three shots made from it ordered side by side in one step.
// The worker dies in the middle of the fan-out — after the first shot's call is done, or with the
// second shot's order committed and not submitted — and its replacement finishes: four orders, four
// holds, four charges, never a shot ordered twice.
const FANOUT = 'test/fixtures/fanout-plugin.ts';
for (const point of ['call.done@3', 'order.committed@3'] as const) {
  test(`SIGKILL at ${point} in the middle of a fan-out of three shots: each is ordered and charged once`, { timeout: 300_000 }, async () => {
    const apiPort = Number(new URL(api0.url).port);
    const mine: ServerProcess[] = [];
    try {
      let w = await worker(apiPort, point, FANOUT);
      mine.push(w);
      const taskId = await createTask(api0.url, `fan-out crash at ${point}`);
      const q = async (sql: string) => (await client.query(sql, [taskId])).rows;
      // The plan of four paid results waits for a person: the owner approves it.
      let plan: { id: string } | undefined;
      await eventually(async () => !!(plan = (await q(`SELECT id FROM approvals WHERE task_id = $1 AND kind = 'PLAN' AND status = 'PENDING'`))[0]), 'the plan card', 60_000);
      const resolved = await fetch(`${api0.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ownerToken}` },
        body: JSON.stringify({ query: 'mutation($i: ResolveApprovalInput!) { resolveApproval(input: $i) { approval { status } } }', variables: { i: { approvalId: Buffer.from(`Approval:${plan!.id}`).toString('base64'), decision: 'APPROVE', idempotencyKey: `plan-${taskId}` } } }),
      }).then((r) => r.json());
      assert.equal(resolved.data?.resolveApproval?.approval?.status, 'APPROVED', JSON.stringify(resolved));
      await eventually(() => w.proc.signalCode === 'SIGKILL', `the worker to die at ${point}`, 90_000).catch((e) => {
        throw new Error(`${(e as Error).message}\n--- worker:\n${w.output()}`);
      });
      assert.match(w.output(), new RegExp(`crash point reached: ${point.split('@')[0]!.replace('.', '\\.')}`));
      mine.push((w = await worker(apiPort, undefined, FANOUT)));
      await eventually(async () => (await q(`SELECT status FROM tasks WHERE id = $1`))[0]?.status === 'COMPLETED', `the task to complete after a crash at ${point}`, 120_000);
      const jobs = await q(`SELECT params->>'checklistItemId' AS step, status FROM generation_jobs WHERE task_id = $1 ORDER BY step`);
      assert.deepEqual(jobs.map((j) => `${j.step}:${j.status}`), ['setting:SUCCEEDED', 'shot-1:SUCCEEDED', 'shot-2:SUCCEEDED', 'shot-3:SUCCEEDED'], 'one order per step');
      const ledger = (await q(`SELECT kind, count(*)::int AS n FROM ledger_entries WHERE task_id = $1 GROUP BY kind`)).map((r) => `${r.kind}:${r.n}`).sort();
      assert.deepEqual(ledger, ['CHARGE:4', 'HOLD:4'], 'four holds, four charges');
    } finally {
      await Promise.all(mine.map((p) => p.stop('SIGKILL')));
    }
  });
}
