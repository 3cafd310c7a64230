// A shared specification of the simulated provider's behaviour (submit, status, lookup, quote,
// cancel, callbacks), run against any implementation: the in-process SimulatedProvider and the HTTP
// client of the provider service must be interchangeable for the jobs layer.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { SIMULATED_PRICES } from '../../server/generation/simulation.ts';
import type { GenerationKind, GenerationProvider, GenerationRequest, ProviderUpdate } from '../../server/generation/types.ts';
import { eventually } from './produce.ts';

/** Latencies a subject must be set up with: IMAGE finishes fast, VIDEO is slow enough to cancel. */
export const CONFORMANCE_LATENCY_MS = { IMAGE: 300, VIDEO: 1500 } as const satisfies Partial<Record<GenerationKind, number>>;

/** A provider under test, without faults, with CONFORMANCE_LATENCY_MS; its callbacks reach `onUpdate`. */
export type ConformanceSubject = { provider: GenerationProvider; close(): Promise<void> };

export function runProviderConformance(label: string, factory: () => Promise<ConformanceSubject>) {
  describe(`provider conformance: ${label}`, () => {
    let subject: ConformanceSubject;
    let p: GenerationProvider;
    const updates: ProviderUpdate[] = [];
    let stop: () => void;
    before(async () => {
      subject = await factory();
      p = subject.provider;
      stop = p.onUpdate((u) => updates.push(u));
    });
    after(async () => {
      stop?.();
      await subject?.close();
    });
    const req = (kind: GenerationKind, prompt = `conformance ${kind}`): GenerationRequest => ({ kind, prompt, params: {}, idempotencyKey: `conf:${randomUUID()}` });
    const final = (id: string) => updates.find((u) => u.upstreamJobId === id && ['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(u.status));

    test('the name is `simulated` (job rows match either implementation)', () => {
      assert.equal(p.name, 'simulated');
    });

    test('quote: the simulated prices in cents, for every kind', async () => {
      for (const kind of Object.keys(SIMULATED_PRICES) as GenerationKind[]) assert.equal(await p.quote(req(kind)), SIMULATED_PRICES[kind]);
    });

    test('submit: one job per idempotency key', async () => {
      const r = req('IMAGE');
      const a = await p.submit(r);
      const b = await p.submit({ ...r });
      const c = await p.submit(req('IMAGE'));
      assert.match(a.upstreamJobId, /^sim_/);
      assert.equal(b.upstreamJobId, a.upstreamJobId);
      assert.notEqual(c.upstreamJobId, a.upstreamJobId);
    });

    test('status follows the timeline to SUCCEEDED with a complete local file; the callbacks agree and carry the key', async () => {
      const r = req('IMAGE', 'a lighthouse');
      const { upstreamJobId: id } = await p.submit(r);
      assert.ok(['QUEUED', 'RUNNING'].includes((await p.status(id)).status));
      await eventually(async () => (await p.status(id)).status === 'SUCCEEDED', 'succeeded', 10_000);
      const s = await p.status(id);
      assert.equal(s.progress, 1);
      const f = s.files![0]!;
      assert.equal(f.mime, 'image/png');
      assert.deepEqual([f.width, f.height], [256, 256]);
      assert.ok(existsSync(f.path));
      assert.equal(statSync(f.path).size, f.bytes);
      assert.deepEqual([...readFileSync(f.path).subarray(1, 4)], [0x50, 0x4e, 0x47]);
      await eventually(() => !!final(id), 'final callback', 10_000);
      const cb = final(id)!;
      assert.equal(cb.status, 'SUCCEEDED');
      assert.equal(cb.idempotencyKey, r.idempotencyKey);
      assert.equal(cb.files![0]!.bytes, f.bytes);
      assert.ok(existsSync(cb.files![0]!.path));
      assert.ok(updates.some((u) => u.upstreamJobId === id && u.status === 'RUNNING'), 'progress callbacks too');
    });

    test('lookup: a job by its key; an unknown key finds nothing', async () => {
      const r = req('AUDIO');
      const { upstreamJobId } = await p.submit(r);
      assert.deepEqual(await p.lookup!(r.idempotencyKey), { upstreamJobId });
      assert.equal(await p.lookup!(`conf:none:${randomUUID()}`), null);
    });

    test('status of a job the provider never had: FAILED', async () => {
      const s = await p.status(`sim_${randomUUID()}`);
      assert.equal(s.status, 'FAILED');
    });

    test('cancel before completion: CANCELLED, nothing made — and it stays so', async () => {
      const { upstreamJobId: id } = await p.submit(req('VIDEO'));
      assert.deepEqual(await p.cancel!(id), { made: false });
      assert.equal((await p.status(id)).status, 'CANCELLED');
      await eventually(() => final(id)?.status === 'CANCELLED', 'cancelled callback', 5000);
      await new Promise((r) => setTimeout(r, CONFORMANCE_LATENCY_MS.VIDEO + 200));
      assert.equal((await p.status(id)).status, 'CANCELLED');
      assert.ok(!updates.some((u) => u.upstreamJobId === id && u.status === 'SUCCEEDED'), 'no result announced');
    });

    test('cancel after completion: still SUCCEEDED, the result was made (and is charged)', async () => {
      const { upstreamJobId: id } = await p.submit(req('IMAGE'));
      await eventually(async () => (await p.status(id)).status === 'SUCCEEDED', 'succeeded', 10_000);
      assert.deepEqual(await p.cancel!(id), { made: true });
      assert.equal((await p.status(id)).status, 'SUCCEEDED');
    });
  });
}
