// The contract every GenerationProvider keeps, as one spec run against every implementation (the
// in-process simulation, the provider service's HTTP client, OpenAI images, the routed composite):
// the jobs layer (server/generation/jobs.ts) is written against this interface alone, so whatever it
// relies on is checked here for each of them. Implementation details (prices, file formats, id
// prefixes, faults) are tested next to each implementation, not here.
//
// Optional parts of the interface (callbacks, cancel, lookup, documented refusals) are contracts only
// for an implementation that has them: each implementation declares its abilities next to its
// factory, the contracts of the abilities it lacks are not registered at all (every registered test
// runs), and one test checks that the declaration is what the provider really has, so an ability
// cannot go untested by being left out of it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { JobStatus } from '../../server/generation/status.ts';
import { ProviderUnavailable, SubmissionOutcomeUnknown, type GenerationProvider, type GenerationRequest, type ProviderUpdate } from '../../server/generation/types.ts';
import { holdsFor, waitFor } from '../helpers/wait.ts';

export type RequestShape = Omit<GenerationRequest, 'idempotencyKey'>;

/** What the provider's own documentation says it refuses, and at which call with which error. */
export type Refusal = {
  label: string;
  req: RequestShape;
  /** The error `quote` rejects with, when the provider refuses there. */
  quote?: RegExp;
  /** The error `submit` rejects with, when the provider refuses there. */
  submit?: RegExp;
};

/**
 * The optional abilities of an implementation, declared when the spec is registered: test names are
 * fixed when the file loads, before the subject exists, so which contracts apply cannot wait for it.
 */
export type ProviderAbilities = {
  /** It announces progress and ends through `onUpdate` (false: `status` only). */
  callbacks: boolean;
  /** It has `cancel` (and `slow` requests to cancel). */
  cancel: boolean;
  /** It has `lookup`. */
  lookup: boolean;
  /** Its documentation says it refuses some requests (listed in `refused`). */
  refuses: boolean;
};

export type GenerationProviderSubject = {
  provider: GenerationProvider;
  /** Requests the provider takes that succeed within seconds (no faults): one per route of a composite. */
  accepted: { label: string; req: RequestShape }[];
  /** For a provider that cancels: requests that stay unfinished long enough to cancel (≥ 1 s), with how long they would take to finish. */
  slow: { label: string; req: RequestShape; wouldFinishMs: number }[];
  /** For a provider that refuses: what it refuses. */
  refused: Refusal[];
  /** Jobs created upstream so far, for subjects that can count them (what "one job upstream" is checked on). */
  upstreamJobs?: () => number | Promise<number>;
  close(): Promise<void>;
};

/** What a provider may report for a job; SUBMITTING and UNKNOWN are the jobs layer's own states. */
const PROVIDER_STATUSES: readonly JobStatus[] = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED'];
const FINAL: readonly JobStatus[] = ['SUCCEEDED', 'FAILED', 'CANCELLED'];
const rank = (s: JobStatus) => (FINAL.includes(s) ? 3 : s === 'RUNNING' ? 2 : s === 'QUEUED' ? 1 : 0);
/** Bounds for a loaded 2-core machine, not expected latencies. */
const JOB_ENDS_MS = 30_000;

export function generationProviderConformance(name: string, has: ProviderAbilities, factory: () => Promise<GenerationProviderSubject>): void {
  describe(`generation provider contract: ${name}`, () => {
    let s: GenerationProviderSubject;
    let p: GenerationProvider;
    const updates: ProviderUpdate[] = [];
    let stopListening: (() => void) | undefined;

    before(async () => {
      s = await factory();
      p = s.provider;
      stopListening = p.onUpdate((u) => updates.push(u));
    });
    after(async () => {
      stopListening?.();
      await s?.close();
    });

    const key = () => `conformance:${randomUUID()}`;
    const req = (shape: RequestShape): GenerationRequest => ({ ...shape, params: { ...shape.params }, idempotencyKey: key() });
    const upstream = async () => (s.upstreamJobs ? await s.upstreamJobs() : undefined);
    const callbacksFor = (id: string, k?: string) => updates.filter((u) => u.upstreamJobId === id || (k !== undefined && u.idempotencyKey === k));
    const finalStatus = (id: string) =>
      waitFor(async () => {
        const st = await p.status(id);
        return FINAL.includes(st.status) ? st : null;
      }, `job ${id} to reach a final state`, { timeoutMs: JOB_ENDS_MS });
    const statusIs = (id: string, want: JobStatus) => waitFor(async () => (await p.status(id)).status === want, `job ${id} to be ${want}`, { timeoutMs: JOB_ENDS_MS });
    // Test names are fixed when the file loads, but the subject (and so its requests) exists only once
    // `before` has run: each contract is one test whose cases — one per request of the subject — are
    // subtests made at run time. A contract of an optional ability is registered only where the
    // declaration says the implementation has it.
    const contract = (title: string, run: (t: TestContext) => Promise<void>) => test(title, run);
    const contractIf = (ability: keyof ProviderAbilities, title: string, run: (t: TestContext) => Promise<void>) => {
      if (has[ability]) contract(title, run);
    };

    contract('abilities: the provider has exactly the optional parts declared for it (none goes untested, none is missing)', async () => {
      assert.equal(typeof p.cancel === 'function', has.cancel, has.cancel ? 'declared to cancel, but it has no cancel' : 'it has cancel, which is not declared (and so not tested)');
      assert.equal(typeof p.lookup === 'function', has.lookup, has.lookup ? 'declared to look up, but it has no lookup' : 'it has lookup, which is not declared (and so not tested)');
      assert.equal(s.refused.length > 0, has.refuses, has.refuses ? 'declared to refuse, but no refusal is listed' : 'refusals are listed, but none is declared (and so none tested)');
      if (has.cancel) assert.ok(s.slow.length > 0, 'a provider that cancels has a slow request to cancel');
      else assert.deepEqual(s.slow, [], 'slow requests are for cancelling, which it is not declared to do');
      // Whether it calls back shows only with a job: the callback contracts below fail where
      // `callbacks` is declared and no callback comes.
    });

    contract('name: a non-empty string (job rows and reconciliation are keyed by it)', async () => {
      assert.equal(typeof p.name, 'string');
      assert.ok(p.name.length > 0);
    });

    contract('quote: a non-negative integer of cents, the same for the same request whatever its key; nothing is submitted', async (t) => {
      for (const a of s.accepted) {
        await t.test(a.label, async () => {
          const before = await upstream();
          const quotes = [await p.quote(req(a.req)), await p.quote(req(a.req)), await p.quote(req(a.req))];
          assert.ok(Number.isInteger(quotes[0]) && quotes[0]! >= 0, `a quote of ${String(quotes[0])}`);
          assert.deepEqual(quotes, [quotes[0], quotes[0], quotes[0]], 'stable');
          assert.equal(await upstream(), before, 'quoting created nothing upstream');
        });
      }
    });

    contract('submit: an upstream job id; the same idempotency key again (at once, then later) is the same job, one job upstream', async (t) => {
      for (const a of s.accepted) {
        await t.test(a.label, async () => {
          const before = await upstream();
          const r = req(a.req);
          const [x, y] = await Promise.all([p.submit(r), p.submit({ ...r, params: { ...r.params } })]);
          assert.equal(typeof x.upstreamJobId, 'string');
          assert.ok(x.upstreamJobId.length > 0);
          assert.equal(y.upstreamJobId, x.upstreamJobId, 'two submissions at once');
          assert.equal((await p.submit(r)).upstreamJobId, x.upstreamJobId, 'a later retry');
          const other = await p.submit(req(a.req));
          assert.notEqual(other.upstreamJobId, x.upstreamJobId, 'another key is another job');
          // Counted once both ended: by then everything the submissions could start upstream was sent.
          await finalStatus(x.upstreamJobId);
          await finalStatus(other.upstreamJobId);
          if (before !== undefined) assert.equal((await upstream())! - before, 2, 'one job upstream per key');
        });
      }
    });

    contract('status: forward-only from submit to SUCCEEDED, final stays final; the files of a success are local and of the announced size', async (t) => {
      for (const a of s.accepted) {
        await t.test(a.label, async () => {
          const { upstreamJobId: id } = await p.submit(req(a.req));
          const seen: ProviderUpdate[] = [];
          // Polled as fast as the provider answers: every state it passes through has a chance to be seen.
          await waitFor(async () => {
            const st = await p.status(id);
            seen.push(st);
            return FINAL.includes(st.status);
          }, `job ${id} to end`, { timeoutMs: JOB_ENDS_MS, intervalMs: 5 });
          for (let i = 0; i < 5; i++) seen.push(await p.status(id));
          for (const st of seen) {
            assert.equal(st.upstreamJobId, id);
            assert.ok(PROVIDER_STATUSES.includes(st.status), `a provider status, not ${st.status}`);
            if (st.progress !== undefined) assert.ok(st.progress >= 0 && st.progress <= 1, `progress ${st.progress}`);
          }
          for (let i = 1; i < seen.length; i++) {
            const [prev, cur] = [seen[i - 1]!, seen[i]!];
            assert.ok(rank(cur.status) >= rank(prev.status), `status went back: ${prev.status} → ${cur.status}`);
            if (FINAL.includes(prev.status)) assert.equal(cur.status, prev.status, 'a final state is final');
            if (!FINAL.includes(cur.status) && prev.progress !== undefined && cur.progress !== undefined) assert.ok(cur.progress >= prev.progress, `progress went back: ${prev.progress} → ${cur.progress}`);
          }
          const end = seen.at(-1)!;
          assert.equal(end.status, 'SUCCEEDED', end.error);
          assert.ok(end.files && end.files.length > 0, 'a success has files');
          for (const f of end.files) {
            assert.ok(existsSync(f.path), `${f.path} exists here`);
            assert.equal(statSync(f.path).size, f.bytes, 'announced size');
            assert.ok(f.mime.includes('/'), `a MIME type, not ${f.mime}`);
          }
        });
      }
    });

    contractIf('callbacks', 'onUpdate, for a provider that calls back: the callbacks reach a final state that agrees with status()', async (t) => {
      for (const a of s.accepted) {
        await t.test(a.label, async () => {
          const r = req(a.req);
          const { upstreamJobId: id } = await p.submit(r);
          const final = await waitFor(() => callbacksFor(id, r.idempotencyKey).find((u) => FINAL.includes(u.status)), `a final callback for ${id}`, { timeoutMs: JOB_ENDS_MS });
          const st = await finalStatus(id);
          assert.equal(final.status, st.status);
          for (const u of callbacksFor(id, r.idempotencyKey)) {
            assert.equal(u.upstreamJobId, id, 'a callback names the job');
            if (u.idempotencyKey !== undefined) assert.equal(u.idempotencyKey, r.idempotencyKey, 'an echoed key is ours');
            if (FINAL.includes(u.status)) assert.equal(u.status, st.status, 'every final callback says the same');
          }
          if (st.status === 'SUCCEEDED') assert.deepEqual(final.files?.map((f) => f.bytes), st.files?.map((f) => f.bytes), 'the same files');
        });
      }
    });

    contractIf('callbacks', 'onUpdate, for a provider that calls back: the function it returns stops deliveries to that listener', async (t) => {
      const a = s.accepted[0]!;
      await t.test(a.label, async () => {
        const late: ProviderUpdate[] = [];
        const stop = p.onUpdate((u) => late.push(u));
        stop();
        const r = req(a.req);
        const { upstreamJobId: id } = await p.submit(r);
        await waitFor(() => callbacksFor(id, r.idempotencyKey).some((u) => FINAL.includes(u.status)), `a final callback for ${id}`, { timeoutMs: JOB_ENDS_MS });
        assert.deepEqual(late, []);
      });
    });

    contract('status of a job id the provider never issued: FAILED — an answer, not an error', async (t) => {
      await t.test('unknown id', async () => {
        const id = `never-issued-${randomUUID()}`;
        const st = await p.status(id);
        assert.equal(st.status, 'FAILED');
        assert.equal(st.upstreamJobId, id);
      });
    });

    contractIf('cancel', 'cancel, for a provider that has it, right after submit: CANCELLED with nothing made, again CANCELLED on a repeat, and it stays so past the time it would have finished', async (t) => {
      for (const sl of s.slow) {
        await t.test(sl.label, async () => {
          const r = req(sl.req);
          const submittedAt = Date.now();
          const { upstreamJobId: id } = await p.submit(r);
          await cancelledForGood(id, r.idempotencyKey, submittedAt + sl.wouldFinishMs);
        });
      }
    });

    contractIf('cancel', 'cancel, for a provider that has it, while RUNNING: CANCELLED with nothing made, again CANCELLED on a repeat, and it stays so past the time it would have finished', async (t) => {
      for (const sl of s.slow) {
        await t.test(sl.label, async () => {
          const r = req(sl.req);
          const submittedAt = Date.now();
          const { upstreamJobId: id } = await p.submit(r);
          await statusIs(id, 'RUNNING');
          await cancelledForGood(id, r.idempotencyKey, submittedAt + sl.wouldFinishMs);
        });
      }
    });

    /** The checks after cancelling an unfinished job (the first cancel is made here). */
    async function cancelledForGood(id: string, k: string, wouldFinishAt: number) {
      const answer = await cancel(id);
      if (answer) assert.equal(answer.made, false, 'nothing was made');
      // Waited for whatever end comes, so a cancel that was ignored fails at once with the real end.
      const end = await finalStatus(id);
      assert.equal(end.status, 'CANCELLED', `the job ended ${end.status} after a cancel`);
      const again = await cancel(id);
      if (again) assert.equal(again.made, false, 'a repeated cancel: still nothing made');
      // The window up to when the job would have finished (and a margin past it) is what is tested:
      // a cancelled job must not finish after all.
      await holdsFor(async () => (await p.status(id)).status === 'CANCELLED', `job ${id} CANCELLED`, Math.max(0, wouldFinishAt - Date.now()) + 500);
      const cbs = callbacksFor(id, k);
      assert.ok(!cbs.some((u) => u.status === 'SUCCEEDED' || u.status === 'FAILED'), `no other end announced: ${cbs.map((u) => u.status).join(', ')}`);
      if (has.callbacks) assert.ok(cbs.some((u) => u.status === 'CANCELLED'), 'the cancellation is announced');
    }

    // Contracts of `cancel` and `lookup` are registered on the declaration that the provider has them,
    // so one that turns out absent fails the contract (rather than passing it unexercised).
    function cancel(id: string) {
      assert.ok(p.cancel, 'declared to cancel, but the provider has no cancel');
      return p.cancel(id);
    }
    function lookup(k: string) {
      assert.ok(p.lookup, 'declared to look up, but the provider has no lookup');
      return p.lookup(k);
    }

    contractIf('cancel', 'cancel, for a provider that has it, after the job finished: left SUCCEEDED, the result made (and so charged)', async (t) => {
      for (const a of s.accepted) {
        await t.test(a.label, async () => {
          const { upstreamJobId: id } = await p.submit(req(a.req));
          await statusIs(id, 'SUCCEEDED');
          const answer = await cancel(id);
          if (answer) assert.equal(answer.made, true);
          assert.equal((await p.status(id)).status, 'SUCCEEDED');
        });
      }
    });

    contractIf('cancel', 'cancel, for a provider that has it, of a job id it never issued: no error, nothing made', async (t) => {
      await t.test('unknown id', async () => {
        const answer = await cancel(`never-issued-${randomUUID()}`);
        if (answer) assert.equal(answer.made, false);
      });
    });

    contractIf('lookup', 'lookup, for a provider that has it: finds a submitted job by its key; a key never submitted finds nothing', async (t) => {
      for (const a of s.accepted) {
        await t.test(a.label, async () => {
          const r = req(a.req);
          assert.equal(await lookup(r.idempotencyKey), null, 'before it is submitted');
          const { upstreamJobId } = await p.submit(r);
          assert.deepEqual(await lookup(r.idempotencyKey), { upstreamJobId });
          assert.equal(await lookup(key()), null);
          await finalStatus(upstreamJobId);
          assert.deepEqual(await lookup(r.idempotencyKey), { upstreamJobId }, 'and after it ended');
        });
      }
    });

    contractIf('refuses', 'refusals, for a provider that refuses: what it does not offer is refused with a clear error (never "try again"), creating nothing upstream', async (t) => {
      assert.ok(s.refused.length > 0, 'declared to refuse, but no refusal is listed');
      for (const f of s.refused) {
        const where = [f.quote && 'quote', f.submit && 'submit'].filter(Boolean).join(' and ');
        await t.test(`${f.label}, at ${where}`, async () => {
          assert.ok(f.quote || f.submit, 'a refusal names where it happens');
          const before = await upstream();
          const r = req(f.req);
          const clear = (pattern: RegExp) => (e: unknown) => {
            assert.ok(e instanceof Error, 'an Error');
            assert.ok(!(e instanceof ProviderUnavailable) && !(e instanceof SubmissionOutcomeUnknown), `a refusal, not a reason to retry: ${e.name}`);
            assert.match(e.message, pattern);
            return true;
          };
          if (f.quote) await assert.rejects(Promise.resolve().then(() => p.quote(r)), clear(f.quote));
          if (f.submit) {
            await assert.rejects(Promise.resolve().then(() => p.submit(r)), clear(f.submit));
            if (has.lookup) assert.equal(await lookup(r.idempotencyKey), null, 'no job under the key');
          }
          assert.equal(await upstream(), before, 'nothing upstream');
        });
      }
    });
  });
}
