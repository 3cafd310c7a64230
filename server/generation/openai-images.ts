// Image generation at OpenAI (or any OpenAI-compatible server) through the OpenAI SDK. The Images
// API is synchronous — one HTTP request that answers with the image — while the rest of the app
// expects job semantics, so this provider turns it into a job: `submit` returns an id at once and
// runs the request in the background, reporting RUNNING and then SUCCEEDED (the image written as a
// file next to the simulated provider's) or FAILED through `onUpdate`. Only IMAGE requests are
// accepted; other kinds are routed elsewhere (see routed.ts).
//
// Job state lives in this process: after a restart `status` answers FAILED for an unknown id (the
// synchronous response, and with it the image, is gone; nothing upstream can be asked).
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { z } from 'zod';
import type { GeneratedFile, GenerationProvider, GenerationRequest, ProviderUpdate } from './types.ts';

const Params = z.object({
  size: z.enum(['1024x1024', '1024x1536', '1536x1024']).default('1024x1024'),
  quality: z.enum(['low', 'medium', 'high']).default('medium'),
});
type Size = z.infer<typeof Params>['size'];
type Quality = z.infer<typeof Params>['quality'];

/**
 * Cents per image by quality and size, rounded up from OpenAI's published gpt-image-1 prices
 * (low ≈ $0.011/0.016, medium ≈ $0.042/0.063, high ≈ $0.167/0.25 for square/portrait-or-landscape).
 * Quotes are holds, so rounding up never under-reserves.
 */
export const DEFAULT_IMAGE_PRICES: Record<Quality, Record<Size, number>> = {
  low: { '1024x1024': 2, '1024x1536': 2, '1536x1024': 2 },
  medium: { '1024x1024': 5, '1024x1536': 7, '1536x1024': 7 },
  high: { '1024x1024': 17, '1024x1536': 25, '1536x1024': 25 },
};

export type OpenAIImagesOptions = {
  apiKey: string;
  /** e.g. `https://api.openai.com/v1` or a compatible server; SDK default when unset. */
  baseUrl?: string;
  model?: string;
  /** Where images are written (the simulated provider's directory: one place for generated files). */
  filesDir: string;
  prices?: Record<Quality, Record<Size, number>>;
  timeoutMs?: number;
  /**
   * The final update is delivered once more after this delay. The submitter persists the upstream
   * id only after `submit` returns, so a fast answer (an immediate 400, a local server) could reach
   * the listener before the id is known and be dropped; the jobs layer deduplicates the repeat.
   */
  redeliverMs?: number;
  /** The egress gate's fetch for the deployment (the API calls); unset: the global fetch. */
  fetch?: (url: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** How a generated image's URL is downloaded (the gate, for any public host); unset: the global fetch. */
  download?: (url: string, init?: RequestInit) => Promise<Response>;
};

/**
 * `abort` exists from `submit` on, so a cancel at any moment before the image is written is kept:
 * before the request is sent (it then never is) or while it is in flight (it is aborted).
 */
type Job = { id: string; key: string; update: ProviderUpdate; abort: AbortController };

const FINAL = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export class OpenAIImagesProvider implements GenerationProvider {
  readonly name = 'openai-images';
  private readonly client: OpenAI;
  private readonly model: string;
  private readonly prices: Record<Quality, Record<Size, number>>;
  private readonly jobs = new Map<string, Job>();
  private readonly byKey = new Map<string, string>();
  private readonly listeners = new Set<(u: ProviderUpdate) => void>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Requests sent upstream (tests check that a repeated key sends nothing). */
  requests = 0;

  constructor(private readonly opts: OpenAIImagesOptions) {
    // No SDK retries: a generation is billed, and a retried request after a timeout could create a
    // second image upstream. A failure is reported as FAILED and the hold is released instead.
    this.client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseUrl, maxRetries: 0, timeout: opts.timeoutMs ?? 180_000, ...(opts.fetch ? { fetch: opts.fetch } : {}) });
    this.model = opts.model ?? 'gpt-image-1';
    this.prices = opts.prices ?? DEFAULT_IMAGE_PRICES;
    mkdirSync(opts.filesDir, { recursive: true });
  }

  onUpdate(listener: (u: ProviderUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async quote(req: GenerationRequest): Promise<number> {
    this.assertImage(req);
    const p = Params.parse(req.params ?? {});
    return this.prices[p.quality][p.size];
  }

  async submit(req: GenerationRequest): Promise<{ upstreamJobId: string }> {
    this.assertImage(req);
    const existing = this.byKey.get(req.idempotencyKey);
    if (existing) return { upstreamJobId: existing };
    const params = Params.parse(req.params ?? {});
    const id = `oai_img_${randomUUID()}`;
    const job: Job = { id, key: req.idempotencyKey, update: { upstreamJobId: id, status: 'QUEUED', progress: 0 }, abort: new AbortController() };
    this.jobs.set(id, job);
    this.byKey.set(req.idempotencyKey, id);
    // Started on the next tick so `submit` has returned the id before any callback is emitted.
    setImmediate(() => void this.run(job, req.prompt, params));
    return { upstreamJobId: id };
  }

  async status(upstreamJobId: string): Promise<ProviderUpdate> {
    return this.jobs.get(upstreamJobId)?.update ?? { upstreamJobId, status: 'FAILED', error: 'unknown job (provider state is per process)' };
  }

  async lookup(idempotencyKey: string) {
    const id = this.byKey.get(idempotencyKey);
    return id ? { upstreamJobId: id } : null;
  }

  /**
   * Ends an unfinished job CANCELLED at once, with nothing made: a request not yet sent never is, one
   * in flight is aborted (OpenAI may still bill it, but no image reaches us). A finished job is left
   * as it is, and a SUCCEEDED one answers that its image was made.
   */
  async cancel(upstreamJobId: string): Promise<{ made: boolean }> {
    const job = this.jobs.get(upstreamJobId);
    if (!job) return { made: false };
    if (FINAL.has(job.update.status)) return { made: job.update.status === 'SUCCEEDED' };
    job.abort.abort();
    // Announced on a later tick, like the simulation's cancellation: the caller has this answer (and
    // `status` says CANCELLED) before any callback does.
    this.finish(job, { upstreamJobId: job.id, status: 'CANCELLED', error: 'cancelled before the image was made' }, { announceLater: true });
    return { made: false };
  }

  close() {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    // Ended quietly: the listeners are being closed too, and a run still in flight finds its job ended.
    for (const job of this.jobs.values()) {
      if (FINAL.has(job.update.status)) continue;
      job.abort.abort();
      job.update = { upstreamJobId: job.id, status: 'CANCELLED', error: 'the provider was closed' };
    }
  }

  private assertImage(req: GenerationRequest) {
    if (req.kind !== 'IMAGE') throw new Error(`the OpenAI images provider generates images only, not ${req.kind}`);
  }

  private async run(job: Job, prompt: string, params: z.infer<typeof Params>) {
    const { id, abort } = job;
    // Cancelled between submit and this tick: nothing is sent upstream.
    if (abort.signal.aborted) return;
    this.set(id, { upstreamJobId: id, status: 'RUNNING', progress: 0.1 });
    let final: ProviderUpdate;
    try {
      this.requests++;
      const res = await this.client.images.generate(
        { model: this.model, prompt, n: 1, size: params.size, quality: params.quality },
        { signal: abort.signal },
      );
      const image = res.data?.[0];
      const bytes = image?.b64_json
        ? Buffer.from(image.b64_json, 'base64')
        : image?.url
          ? Buffer.from(await (await (this.opts.download ?? fetch)(image.url, { signal: abort.signal })).arrayBuffer())
          : null;
      // A cancel that came while the answer was read has already ended the job with nothing made:
      // the image is not written, so what cancel answered stays true.
      if (abort.signal.aborted) throw new Error('cancelled');
      if (!bytes || bytes.length === 0) throw new Error('the provider returned no image');
      final = { upstreamJobId: id, status: 'SUCCEEDED', progress: 1, files: [this.write(id, bytes)] };
    } catch (e) {
      final = { upstreamJobId: id, status: abort.signal.aborted ? 'CANCELLED' : 'FAILED', error: describe(e) };
    }
    // Ended by cancel (or close) while the request was in flight: that end stands.
    if (FINAL.has(job.update.status)) return;
    this.finish(job, final);
  }

  /** Records a job's final update and announces it, then once more later (see `redeliverMs`). */
  private finish(job: Job, final: ProviderUpdate, opts: { announceLater?: boolean } = {}) {
    job.update = final;
    const later = (ms: number) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        this.emit(final);
      }, ms);
      t.unref();
      this.timers.add(t);
    };
    if (opts.announceLater) later(0);
    else this.emit(final);
    later(this.opts.redeliverMs ?? 1000);
  }

  private write(id: string, bytes: Buffer): GeneratedFile {
    const isPng = bytes.subarray(0, 8).equals(PNG_MAGIC);
    const mime = isPng ? 'image/png' : bytes[0] === 0xff && bytes[1] === 0xd8 ? 'image/jpeg' : 'image/webp';
    const path = join(this.opts.filesDir, `${id}.${mime.split('/')[1] === 'jpeg' ? 'jpg' : mime.split('/')[1]}`);
    writeFileSync(path, bytes);
    // PNG IHDR: width and height are the first two fields after the signature and chunk header.
    const dims = isPng && bytes.length >= 24 ? { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) } : {};
    return { path, mime, bytes: bytes.length, ...dims };
  }

  private set(id: string, u: ProviderUpdate) {
    const job = this.jobs.get(id);
    if (job) job.update = u;
    this.emit(u);
  }

  private emit(u: ProviderUpdate) {
    for (const l of this.listeners) l(u);
  }
}

/** An error for the job row: the upstream message and status, never the request or credentials. */
function describe(e: unknown): string {
  if (e instanceof OpenAI.APIError) return `openai ${e.status ?? 'error'}: ${e.message}`.slice(0, 500);
  return ((e as Error)?.message ?? String(e)).slice(0, 500);
}
