// What the simulated provider does beyond the generic provider contract, run against both of its
// forms: the in-process SimulatedProvider and the HTTP client of the provider service present the
// same name, prices, id prefix, timeline and files, so job rows match whichever a process runs. The
// contract every provider keeps (idempotency, lookup, cancel, forward-only status, unknown ids) is
// test/conformance/generation-provider.spec.ts, run against both in test/conformance-generation.test.ts.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { SIMULATED_PRICES } from '../../server/generation/simulation.ts';
import type { GenerationKind, GenerationProvider, GenerationRequest, ProviderUpdate } from '../../server/generation/types.ts';
import { waitFor } from './wait.ts';

/** Latencies a subject must be set up with: IMAGE finishes fast, VIDEO is slow enough to be seen running. */
export const CONFORMANCE_LATENCY_MS = { IMAGE: 300, VIDEO: 1500 } as const satisfies Partial<Record<GenerationKind, number>>;

/** A provider under test, without faults, with CONFORMANCE_LATENCY_MS; its callbacks reach `onUpdate`. */
export type ConformanceSubject = { provider: GenerationProvider; close(): Promise<void> };

export function runProviderConformance(label: string, factory: () => Promise<ConformanceSubject>) {
  describe(`simulated provider, either form: ${label}`, () => {
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

    test('job ids are `sim_…` (the routed provider tells the simulation\'s jobs by it)', async () => {
      assert.match((await p.submit(req('IMAGE'))).upstreamJobId, /^sim_/);
    });

    test('status follows the timeline to SUCCEEDED with a complete local file; the callbacks agree and carry the key', async () => {
      const r = req('IMAGE', 'a lighthouse');
      const { upstreamJobId: id } = await p.submit(r);
      // On a slow machine the short timeline may already be over when the first status is read.
      assert.ok(['QUEUED', 'RUNNING', 'SUCCEEDED'].includes((await p.status(id)).status));
      await waitFor(async () => (await p.status(id)).status === 'SUCCEEDED', 'succeeded', { timeoutMs: 10_000 });
      const s = await p.status(id);
      assert.equal(s.progress, 1);
      const f = s.files![0]!;
      assert.equal(f.mime, 'image/png');
      assert.deepEqual([f.width, f.height], [256, 256]);
      assert.ok(existsSync(f.path));
      assert.equal(statSync(f.path).size, f.bytes);
      assert.deepEqual([...readFileSync(f.path).subarray(1, 4)], [0x50, 0x4e, 0x47]);
      await waitFor(() => final(id), 'final callback', { timeoutMs: 10_000 });
      const cb = final(id)!;
      assert.equal(cb.status, 'SUCCEEDED');
      assert.equal(cb.idempotencyKey, r.idempotencyKey);
      assert.equal(cb.files![0]!.bytes, f.bytes);
      assert.ok(existsSync(cb.files![0]!.path));
      assert.ok(updates.some((u) => u.upstreamJobId === id && u.status === 'RUNNING'), 'progress callbacks too');
    });
  });
}
