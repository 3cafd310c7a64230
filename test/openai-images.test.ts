// The OpenAI image provider against a local OpenAI-compatible stub over real HTTP (the real SDK):
// submit → RUNNING/SUCCEEDED callbacks → a valid PNG on disk and a charged hold; an upstream error
// → FAILED and a released hold; a repeated idempotency key → one upstream request; other kinds
// routed to the simulated provider when the app is configured for OpenAI images.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { ledgerSummary, listenToProvider, submitGeneration, type JobDeps } from '../server/generation/jobs.ts';
import { OpenAIImagesProvider } from '../server/generation/openai-images.ts';
import type { ProviderUpdate } from '../server/generation/types.ts';
import { startTestApp, testConfig, type TestApp } from './helpers/app.ts';
import { startOpenAIStub, type ImageAnswer } from './helpers/openai-stub.ts';
import { eventually } from './helpers/produce.ts';

/** Parses a PNG's chunks (checking the signature and that IHDR/IDAT/IEND are there) and inflates its pixels. */
function decodePng(buf: Buffer) {
  assert.deepEqual([...buf.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  const chunks: string[] = [];
  const idat: Buffer[] = [];
  let o = 8;
  while (o < buf.length) {
    const len = buf.readUInt32BE(o);
    const type = buf.subarray(o + 4, o + 8).toString('ascii');
    chunks.push(type);
    if (type === 'IDAT') idat.push(buf.subarray(o + 8, o + 8 + len));
    o += 12 + len;
  }
  assert.equal(chunks[0], 'IHDR');
  assert.equal(chunks.at(-1), 'IEND');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20), raw: inflateSync(Buffer.concat(idat)) };
}

describe('OpenAI image provider (SDK against a local stub)', () => {
  let t: TestApp;
  let dir: string;
  let stub: Awaited<ReturnType<typeof startOpenAIStub>>;
  let n = 0;
  const providers: OpenAIImagesProvider[] = [];
  before(async () => {
    t = await startTestApp('openai_images');
    dir = mkdtempSync(join(tmpdir(), 'atelier-oai-img-'));
    stub = await startOpenAIStub(() => ({ role: 'assistant', content: 'unused' }), {
      // A prompt containing "forbidden" is refused upstream, like a content-policy rejection.
      images: (b): ImageAnswer => (b.prompt.includes('forbidden') ? { error: { status: 400, message: 'Your request was rejected by the safety system.' } } : {}),
      imageDelayMs: 100,
    });
  });
  after(async () => {
    for (const p of providers) p.close();
    await stub.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function setup() {
    const provider = new OpenAIImagesProvider({ apiKey: 'sk-test', baseUrl: stub.baseUrl, filesDir: dir, redeliverMs: 300 });
    providers.push(provider);
    const seen: ProviderUpdate[] = [];
    provider.onUpdate((u) => seen.push(u));
    const deps: JobDeps = { prisma: t.app.deps.prisma, notifier: t.app.deps.notifier, provider, log: t.app.deps.log };
    const stop = listenToProvider(deps);
    const task = await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: `oai ${++n}` } });
    return { provider, deps, stop, task, seen };
  }
  const job = (id: string) => t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id } });

  test('submit → RUNNING then SUCCEEDED callbacks → a valid PNG on disk, the quote held and charged', async () => {
    const { provider, deps, stop, task, seen } = await setup();
    const params = { size: '1024x1536', quality: 'low', finishWhenDone: true };
    const submitted = await submitGeneration(deps, { workspaceId: t.a.workspaceId, taskId: task.id, kind: 'IMAGE', prompt: 'a lighthouse at dusk', params, idempotencyKey: 'oai-1' });
    assert.equal(submitted.status, 'QUEUED');
    assert.match(submitted.upstreamJobId!, /^oai_img_/);
    assert.equal(submitted.quoteCents, 2);
    await eventually(async () => (await job(submitted.id)).status === 'SUCCEEDED', 'job succeeded', 10_000);
    stop();

    assert.deepEqual(
      seen.filter((u) => u.upstreamJobId === submitted.upstreamJobId).map((u) => u.status).slice(0, 2),
      ['RUNNING', 'SUCCEEDED'],
    );
    assert.deepEqual(stub.imageRequests.at(-1), { model: 'gpt-image-1', prompt: 'a lighthouse at dusk', n: 1, size: '1024x1536', quality: 'low' });
    const row = await job(submitted.id);
    const files = (row.result as { files: { path: string; mime: string; width: number; height: number; bytes: number }[] }).files;
    assert.equal(files.length, 1);
    assert.equal(files[0]!.mime, 'image/png');
    assert.ok(files[0]!.path.startsWith(dir), 'written to the generated-files directory');
    const png = decodePng(readFileSync(files[0]!.path));
    assert.deepEqual([png.width, png.height, files[0]!.width, files[0]!.height], [16, 16, 16, 16]);
    assert.equal(png.raw.length, (16 * 3 + 1) * 16, 'pixel data inflates to 16 rows of 16 RGB pixels');
    assert.deepEqual(await provider.status(submitted.upstreamJobId!), { upstreamJobId: submitted.upstreamJobId, status: 'SUCCEEDED', progress: 1, files });

    const events = await t.app.deps.prisma.taskEvent.findMany({ where: { taskId: task.id, type: { startsWith: 'JOB_' } }, orderBy: { seq: 'asc' } });
    assert.equal(events[0]!.type, 'JOB_SUBMITTED');
    assert.equal(events.at(-1)!.type, 'JOB_SUCCEEDED');
    assert.equal(events.filter((e) => e.type === 'JOB_SUCCEEDED').length, 1, 'the redelivered final callback emitted nothing');
    assert.deepEqual(await ledgerSummary(t.app.deps.prisma, { taskId: task.id }), { heldCents: 2, chargedCents: 2, releasedCents: 0, outstandingCents: 0, savedCents: 0 });
  });

  test('an upstream error → FAILED with the provider message, the hold released', async () => {
    const { deps, stop, task } = await setup();
    const submitted = await submitGeneration(deps, { workspaceId: t.a.workspaceId, taskId: task.id, kind: 'IMAGE', prompt: 'something forbidden', params: {}, idempotencyKey: 'oai-err' });
    await eventually(async () => (await job(submitted.id)).status === 'FAILED', 'job failed', 10_000);
    stop();
    const row = await job(submitted.id);
    assert.match(row.error ?? '', /openai 400.*safety system/);
    assert.equal(row.result, null);
    assert.deepEqual(await ledgerSummary(t.app.deps.prisma, { taskId: task.id }), { heldCents: 5, chargedCents: 0, releasedCents: 5, outstandingCents: 0, savedCents: 0 });
  });

  test('the same idempotency key → one upstream request (provider and jobs layer)', async () => {
    const { provider, deps, stop, task, seen } = await setup();
    const before = stub.imageRequests.length;
    const req = { workspaceId: t.a.workspaceId, taskId: task.id, kind: 'IMAGE' as const, prompt: 'twin herons', params: {}, idempotencyKey: 'oai-twin' };
    // An old and a new worker submitting the same call at once, then a retry after the fact.
    const [a, b] = await Promise.all([submitGeneration(deps, req), submitGeneration(deps, req)]);
    assert.equal(a.id, b.id);
    await eventually(async () => (await job(a.id)).status === 'SUCCEEDED', 'job succeeded', 10_000);
    // Read the row again: `a` may be the snapshot of the worker that found the order already placed.
    const upstream = (await job(a.id)).upstreamJobId;
    const again = await provider.submit(req);
    assert.equal(again.upstreamJobId, upstream, 'the provider honours the key');
    assert.deepEqual(await provider.lookup('oai-twin'), { upstreamJobId: upstream });
    // The provider redelivers the final callback once, redeliverMs after the job ended: by then
    // anything the three submissions could have started upstream has been sent.
    await eventually(() => seen.filter((u) => u.upstreamJobId === upstream && u.status === 'SUCCEEDED').length >= 2, 'the redelivered final callback', 10_000);
    stop();
    assert.equal(stub.imageRequests.length - before, 1, 'one upstream request');
    assert.equal(provider.requests, 1);
    assert.equal(await t.app.deps.prisma.generationJob.count({ where: { idempotencyKey: 'oai-twin' } }), 1);
  });

  test('other kinds are refused with a clear error; unsupported parameter values are refused at quote', async () => {
    const { provider } = await setup();
    const video = { kind: 'VIDEO' as const, prompt: 'waves', params: {}, idempotencyKey: 'oai-video' };
    await assert.rejects(provider.quote(video), /images only, not VIDEO/);
    await assert.rejects(provider.submit(video), /images only, not VIDEO/);
    await assert.rejects(provider.quote({ ...video, kind: 'IMAGE', params: { size: '64x64' } }), /size/);
  });
});

describe('app configuration: ATELIER_IMAGE_PROVIDER=openai', () => {
  let t: TestApp;
  let stub: Awaited<ReturnType<typeof startOpenAIStub>>;
  let dataDir: string;
  before(async () => {
    stub = await startOpenAIStub(() => ({ role: 'assistant', content: 'unused' }));
    dataDir = mkdtempSync(join(tmpdir(), 'atelier-oai-app-'));
    const base = testConfig();
    t = await startTestApp('openai_images_app', {
      dataDir,
      openai: { ...base.openai, apiKey: 'sk-test', baseUrl: stub.baseUrl, imageProvider: 'openai' },
    });
  });
  after(async () => {
    await t.close();
    await stub.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('images go to OpenAI, video stays simulated; the default stays simulated', async () => {
    const deps = t.app.deps.jobs;
    assert.equal(deps.provider.name, 'openai-images+simulated');
    assert.equal(testConfig().openai.imageProvider, 'simulated');
    const task = await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'routed' } });
    const img = await submitGeneration(deps, { workspaceId: t.a.workspaceId, taskId: task.id, kind: 'IMAGE', prompt: 'fox', params: {}, idempotencyKey: 'r-img' });
    const vid = await submitGeneration(deps, { workspaceId: t.a.workspaceId, taskId: task.id, kind: 'VIDEO', prompt: 'sea', params: {}, idempotencyKey: 'r-vid' });
    assert.match(img.upstreamJobId!, /^oai_img_/);
    assert.match(vid.upstreamJobId!, /^sim_/);
    await eventually(
      async () => (await t.app.deps.prisma.generationJob.count({ where: { taskId: task.id, status: 'SUCCEEDED' } })) === 2,
      'both jobs succeeded',
      15_000,
    );
    assert.equal(stub.imageRequests.length, 1);
    assert.equal((await t.app.deps.prisma.generationJob.findUniqueOrThrow({ where: { id: img.id } })).provider, 'openai-images+simulated');
  });
});
