// The simulated provider as an external service (server/provider/): a real child process, reached
// over HTTP by the provider client, calling back into an in-process Atelier over HTTP with signed
// callbacks. Completion by callback, a provider killed with SIGKILL and restarted on its data
// directory, idempotent submission, lookup after an unclear submission, cancellation before and
// after completion, and forged callbacks refused. Then the simulated provider's specifics (name,
// prices, ids, timeline, files) for the HTTP client and the in-process SimulatedProvider; the generic
// provider contract runs in test/conformance-generation.test.ts.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HttpGenerationProvider } from '../server/generation/http-provider.ts';
import { reconcileJobs, submitGeneration, type JobDeps } from '../server/generation/jobs.ts';
import { webhookFor } from '../server/generation/provider-protocol.ts';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import type { SimJob } from '../server/generation/simulation.ts';
import { DataDirInUse, JobStore } from '../server/provider/store.ts';
import { SubmissionOutcomeUnknown, type GenerationKind, type ProviderUpdate } from '../server/generation/types.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { CONFORMANCE_LATENCY_MS, runProviderConformance } from './helpers/provider-conformance.ts';
import { startCallbackEndpoint, startProviderProcess, type ProviderProcess } from './helpers/provider-process.ts';
import { eventually } from './helpers/produce.ts';
import { pause } from './helpers/wait.ts';

const root = mkdtempSync(join(tmpdir(), 'atelier-provsvc-'));
const secret = `whsec_${randomBytes(32).toString('base64')}`;
const providerDir = join(root, 'provider-data');
const apiFiles = join(root, 'api-files');
// IMAGE and VIDEO as the conformance spec needs them; MODEL_3D slow enough to outlast a restart.
const LATENCY = `IMAGE=${CONFORMANCE_LATENCY_MS.IMAGE},VIDEO=${CONFORMANCE_LATENCY_MS.VIDEO},AUDIO=300,MODEL_3D=6000`;
const startMain = (port?: number) => startProviderProcess({ dataDir: providerDir, secret, port, env: { ATELIER_SIM_LATENCY_MS: LATENCY } });

let prov: ProviderProcess;
let t: TestApp;
let http: HttpGenerationProvider;
const extra: ProviderProcess[] = [];

before(async () => {
  prov = await startMain();
  // The URL is read per request: the restarted service is at the same address.
  http = new HttpGenerationProvider({ baseUrl: () => prov.url, secret, filesDir: apiFiles });
  t = await startTestApp('provsvc', {}, { provider: http });
});

after(async () => {
  await t?.close();
  await Promise.all([prov, ...extra].map((p) => p?.stop('SIGKILL')));
  rmSync(root, { recursive: true, force: true });
});

describe('generation jobs through the provider service', () => {
  let n = 0;
  const task = () => t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: `provider service ${++n}` } });
  const row = (id: string) => t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id } });
  const ledger = async (jobId: string) =>
    (await t.app.deps.prisma.ledgerEntry.findMany({ where: { jobId }, orderBy: { createdAt: 'asc' } })).map((e) => [e.kind, e.amountCents]);
  const submit = (taskId: string, kind: GenerationKind, key: string, prompt = `prompt for ${key}`) =>
    submitGeneration(t.app.deps.jobs, { workspaceId: t.a.workspaceId, taskId, kind, prompt, params: {}, idempotencyKey: key });
  const providerJobs = async (url: string) => ((await (await fetch(`${url}/health`)).json()) as { jobs: number }).jobs;

  test('a generation completes by HTTP callback; its file is fetched into the API files directory and served', async () => {
    const tk = await task();
    const job = await submit(tk.id, 'IMAGE', 'ps-complete', 'harbour at dawn');
    assert.equal(job.status, 'QUEUED');
    assert.equal(job.provider, 'simulated');
    // No worker runs in this app, so nothing polls: only a callback can finish the job.
    await eventually(async () => (await row(job.id)).status === 'SUCCEEDED', 'completed by callback', 10_000);
    const done = await row(job.id);
    assert.ok(done.callbacks >= 1);
    const file = (done.result as { files: { path: string; mime: string; bytes: number }[] }).files[0]!;
    assert.equal(file.path, join(apiFiles, `${job.upstreamJobId}.png`), 'a local path, in the API files directory');
    assert.deepEqual([...readFileSync(file.path).subarray(1, 4)], [0x50, 0x4e, 0x47]);
    assert.deepEqual(await ledger(job.id), [['HOLD', 4], ['CHARGE', 4]]);
    const res = await fetch(`${t.url}/files/${basename(file.path)}`, { headers: { authorization: `Bearer ${t.a.ownerToken}` } });
    assert.equal(res.status, 200);
    assert.equal(Number(res.headers.get('content-length')), file.bytes);
  });

  test('SIGKILL the provider mid-job: while it is down polls are errors, not verdicts; restarted on its data directory, the jobs complete', async () => {
    const tk = await task();
    const a = await submit(tk.id, 'VIDEO', 'ps-kill-a'); // ends while the service is down
    const b = await submit(tk.id, 'MODEL_3D', 'ps-kill-b'); // still running when it is back
    await eventually(async () => (await row(a.id)).status === 'RUNNING', 'running', 10_000);
    const port = prov.port;
    await prov.stop('SIGKILL');

    await assert.rejects(http.status(a.upstreamJobId!), 'a service that is down gives no answer');
    await reconcileJobs(t.app.deps.jobs, { silentMs: 0 }).catch(() => {});
    assert.equal((await row(a.id)).status, 'RUNNING', 'not FAILED because the service was down');
    assert.notEqual((await row(b.id)).status, 'FAILED');

    // The service stays down past the moment job a ends: that a job finishing during the outage
    // reports its end after the restart is what this test is about, so the outage is a duration.
    await pause(Math.max(0, a.createdAt.getTime() + CONFORMANCE_LATENCY_MS.VIDEO + 200 - Date.now()));
    prov = await startMain(port);
    // Job a finished while the service was down: its final callback goes out on restart.
    await eventually(async () => (await row(a.id)).status === 'SUCCEEDED', 'a completed after the restart', 15_000);
    // Job b's timers were re-armed from its persisted start and latency.
    await eventually(async () => (await row(b.id)).status === 'SUCCEEDED', 'b completed after the restart', 20_000);
    assert.deepEqual(await ledger(a.id), [['HOLD', 40], ['CHARGE', 40]]);
    assert.deepEqual(await ledger(b.id), [['HOLD', 60], ['CHARGE', 60]]);
  });

  test('idempotent submission: the same key twice (even at once) is one job at the provider and one order', async () => {
    const before = await providerJobs(prov.url);
    const req = { kind: 'IMAGE' as const, prompt: 'twice', params: {}, idempotencyKey: 'ps-idem' };
    const [x, y] = await Promise.all([http.submit(req), http.submit(req)]);
    assert.equal(x.upstreamJobId, y.upstreamJobId);
    assert.equal(await providerJobs(prov.url), before + 1);

    const tk = await task();
    const [j1, j2] = await Promise.all([submit(tk.id, 'IMAGE', 'ps-idem-order'), submit(tk.id, 'IMAGE', 'ps-idem-order')]);
    assert.equal(j1.id, j2.id);
    assert.equal(await providerJobs(prov.url), before + 2);
    assert.equal((await http.lookup('ps-idem-order'))?.upstreamJobId, (await row(j1.id)).upstreamJobId);
  });

  test('an unclear submission (connection dropped, or 504, after the job was made) is found by its key, never resubmitted', async () => {
    const unk = await startProviderProcess({ dataDir: join(root, 'provider-unknown'), secret, env: { ATELIER_SIM_UNKNOWN_SUBMIT_RATE: '1', ATELIER_SIM_LATENCY_MS: 'IMAGE=200' } });
    extra.push(unk);
    const p = new HttpGenerationProvider({ baseUrl: unk.url, secret, filesDir: apiFiles });
    // The service alternates: the first answer is a dropped connection, the second a 504.
    for (const key of ['ps-unk-drop', 'ps-unk-504']) {
      await assert.rejects(p.submit({ kind: 'IMAGE', prompt: key, params: {}, idempotencyKey: key }), SubmissionOutcomeUnknown);
      assert.match((await p.lookup(key))!.upstreamJobId, /^sim_/, 'the job exists upstream');
    }
    const deps: JobDeps = { prisma: t.app.deps.prisma, notifier: t.app.deps.notifier, provider: p, log: t.app.deps.log };
    const tk = await task();
    const job = await submitGeneration(deps, { workspaceId: t.a.workspaceId, taskId: tk.id, kind: 'IMAGE', prompt: 'unclear', params: {}, idempotencyKey: 'ps-unk-job' });
    assert.equal(job.status, 'UNKNOWN');
    assert.equal(await providerJobs(unk.url), 3);
    const r = await reconcileJobs(deps, { silentMs: 60_000 });
    assert.ok(r.resolvedUnknown >= 1);
    const found = await p.lookup('ps-unk-job');
    const attached = await row(job.id);
    assert.equal(attached.upstreamJobId, found!.upstreamJobId, 'attached to the job the provider made');
    assert.notEqual(attached.status, 'UNKNOWN');
    assert.notEqual(attached.status, 'FAILED');
    assert.equal(await providerJobs(unk.url), 3, 'nothing resubmitted');
  });

  test('cancel before completion: CANCELLED and released; after completion: still SUCCEEDED and charged', async () => {
    const tk = await task();
    const early = await submit(tk.id, 'VIDEO', 'ps-cancel-early');
    assert.deepEqual(await http.cancel(early.upstreamJobId!), { made: false });
    // The provider's CANCELLED callback settles the job.
    await eventually(async () => (await row(early.id)).status === 'CANCELLED', 'cancelled', 10_000);
    assert.deepEqual(await ledger(early.id), [['HOLD', 40], ['RELEASE', 40]]);

    const late = await submit(tk.id, 'IMAGE', 'ps-cancel-late');
    await eventually(async () => (await row(late.id)).status === 'SUCCEEDED', 'succeeded', 10_000);
    assert.deepEqual(await http.cancel(late.upstreamJobId!), { made: true });
    assert.equal((await http.status(late.upstreamJobId!)).status, 'SUCCEEDED');
    assert.equal((await row(late.id)).status, 'SUCCEEDED');
    assert.deepEqual(await ledger(late.id), [['HOLD', 4], ['CHARGE', 4]]);
  });

  test('a callback with a bad signature is refused (401) and changes nothing', async () => {
    const tk = await task();
    const job = await submit(tk.id, 'MODEL_3D', 'ps-forged'); // first real callback after 1.2 s
    const snapshot = await row(job.id);
    const hook = `${t.url}/hooks/generation/simulated`;
    const body = JSON.stringify({ id: job.upstreamJobId, idempotencyKey: 'ps-forged', status: 'SUCCEEDED', progress: 1 });
    const post = (headers: Record<string, string>, b = body) => fetch(hook, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: b });
    const signed = (key: string, at: Date, b = body, id = 'msg_test') => ({
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': webhookFor(key).sign(id, at, b),
    });

    assert.equal((await post(signed(`whsec_${randomBytes(32).toString('base64')}`, new Date()))).status, 401, 'another key');
    assert.equal((await post({})).status, 401, 'unsigned');
    assert.equal((await post(signed(secret, new Date(Date.now() - 10 * 60_000)))).status, 401, 'a replay from ten minutes ago');
    const tampered = signed(secret, new Date());
    assert.equal((await post(tampered, body.replace('"progress":1', '"progress":0.99'))).status, 401, 'a body changed after signing');

    const now = await row(job.id);
    assert.equal(now.status, snapshot.status);
    assert.equal(now.callbacks, snapshot.callbacks);
    assert.equal(now.progress, snapshot.progress);
    assert.deepEqual(await ledger(job.id), [['HOLD', 60]]);

    // The route itself works: the same delivery, properly signed, for a job nobody has, is taken (and ignored).
    const other = JSON.stringify({ id: 'sim_nobody', status: 'RUNNING', progress: 0.5 });
    assert.equal((await post(signed(secret, new Date(), other), other)).status, 204);
    assert.equal((await fetch(`${t.url}/hooks/generation/other`, { method: 'POST', body: '{}' })).status, 404);
  });
});

describe('the provider job store', () => {
  test('a torn last line (a crash mid-write) is dropped, acknowledged jobs and facts are kept; one live owner per directory', async () => {
    const dir = join(root, 'store');
    const first = JobStore.open(dir);
    assert.equal(first.jobs.length, 0);
    const job: SimJob = {
      id: 'sim_store_a',
      req: { kind: 'IMAGE', prompt: 'kept', params: {}, idempotencyKey: 'store-a' },
      created: Date.now(),
      latency: 100,
      fails: false,
      plan: [{ at: 0.2 }, { at: 0.6 }, { at: 1 }],
    };
    first.store.created(job);
    first.store.cancelled(job.id, job.created + 10);
    first.store.finalDelivered(job.id);
    first.store.close();
    appendFileSync(join(dir, 'jobs.log'), '{"op":"job","job":{"id":"sim_torn"');

    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', 'provider-lock-holder']);
    await once(holder, 'spawn');
    writeFileSync(join(dir, 'lock'), String(holder.pid));
    assert.throws(() => JobStore.open(dir), DataDirInUse, 'a live owner keeps the directory');
    holder.kill('SIGKILL');
    await once(holder, 'exit');

    const again = JobStore.open(dir); // the dead owner's lock is taken over
    assert.deepEqual(
      again.jobs.map((s) => [s.job.id, s.job.cancelledAt, s.finalDelivered]),
      [[job.id, job.created + 10, true]],
    );
    again.store.close();
    const text = readFileSync(join(dir, 'jobs.log'), 'utf8');
    assert.ok(text.endsWith('\n') && !text.includes('sim_torn'), 'compacted without the torn record');
    for (const line of text.trim().split('\n')) JSON.parse(line);
  });
});

describe('callback delivery', () => {
  test('a callback the receiver cannot take (503) is delivered again, with a fresh signature', async () => {
    const p = new HttpGenerationProvider({ baseUrl: prov.url, secret, filesDir: join(root, 'retry-files') });
    let refusals = 2;
    const endpoint = await startCallbackEndpoint({
      receiveCallback: async (body, headers) => (refusals-- > 0 ? { status: 503 } : p.receiveCallback(body, headers)),
    });
    p.useCallbackBase(endpoint.url);
    const seen: ProviderUpdate[] = [];
    p.onUpdate((u) => seen.push(u));
    try {
      const { upstreamJobId } = await p.submit({ kind: 'IMAGE', prompt: 'retry me', params: {}, idempotencyKey: 'ps-retry' });
      // The first two deliveries (both progress callbacks) were refused; retried after 250 ms.
      await eventually(() => seen.some((u) => u.upstreamJobId === upstreamJobId && u.status === 'SUCCEEDED'), 'final callback', 10_000);
      await eventually(() => seen.filter((u) => u.upstreamJobId === upstreamJobId && u.status === 'RUNNING').length === 2, 'refused callbacks redelivered', 10_000);
      assert.ok(refusals < 0);
    } finally {
      p.close();
      await endpoint.close();
    }
  });
});

runProviderConformance('in-process SimulatedProvider', async () => {
  const p = new SimulatedProvider({ filesDir: join(root, 'conformance-sim'), latencyMs: CONFORMANCE_LATENCY_MS });
  return { provider: p, close: async () => p.close() };
});

runProviderConformance('provider service over HTTP', async () => {
  const p = new HttpGenerationProvider({ baseUrl: prov.url, secret, filesDir: join(root, 'conformance-http') });
  const endpoint = await startCallbackEndpoint(p);
  p.useCallbackBase(endpoint.url);
  return {
    provider: p,
    close: async () => {
      p.close();
      await endpoint.close();
    },
  };
});
