// The simulated provider, a product feature for demos and tests: configurable latency per kind,
// failures, submissions with unknown outcome, duplicate and out-of-order callbacks, missing
// callbacks — and real files (PNG images, animated SVG "video", WAV audio, glTF models) rendered
// from the prompt, so the app has something to show. Deterministic for a given seed.
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodePng } from './png.ts';
import { type GeneratedFile, type GenerationKind, type GenerationProvider, type GenerationRequest, type ProviderUpdate, SubmissionOutcomeUnknown } from './types.ts';

export type SimulatedOptions = {
  filesDir: string;
  latencyMs?: Partial<Record<GenerationKind, number>>;
  /** Probabilities 0..1. */
  failureRate?: number;
  unknownSubmitRate?: number;
  duplicateCallbackRate?: number;
  outOfOrderRate?: number;
  missingCallbackRate?: number;
  seed?: number;
};

type Job = { id: string; req: GenerationRequest; created: number; latency: number; fails: boolean; files?: GeneratedFile[] };

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) % 1_000_000) / 1_000_000;
  };
}

function colours(prompt: string): [number, number, number][] {
  const h = createHash('sha256').update(prompt).digest();
  return [0, 3, 6, 9].map((i) => [h[i]!, h[i + 1]!, h[i + 2]!]);
}

export function renderImage(prompt: string, size = 256): Buffer {
  const [a, b, c] = colours(prompt);
  const h = createHash('sha256').update(`shapes:${prompt}`).digest();
  const circles = [0, 1, 2].map((i) => ({ x: (h[i]! / 255) * size, y: (h[i + 3]! / 255) * size, r: 20 + (h[i + 6]! / 255) * size * 0.25 }));
  return encodePng(size, size, (x, y) => {
    const t = (x + y) / (2 * size);
    const base: [number, number, number] = [0, 1, 2].map((k) => Math.round(a![k]! * (1 - t) + b![k]! * t)) as [number, number, number];
    for (const ci of circles) if ((x - ci.x) ** 2 + (y - ci.y) ** 2 < ci.r ** 2) return c!;
    return base;
  });
}

function renderVideo(prompt: string): string {
  const [a, b] = colours(prompt).map((c) => `rgb(${c.join(',')})`);
  const title = prompt.replace(/[<&>"]/g, ' ').slice(0, 60);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180" viewBox="0 0 320 180">
<rect width="320" height="180" fill="${a}"><animate attributeName="fill" values="${a};${b};${a}" dur="4s" repeatCount="indefinite"/></rect>
<circle cx="40" cy="90" r="24" fill="${b}"><animate attributeName="cx" values="40;280;40" dur="4s" repeatCount="indefinite"/></circle>
<text x="160" y="170" font-family="sans-serif" font-size="12" text-anchor="middle" fill="#fff">${title}</text></svg>\n`;
}

function renderAudio(prompt: string, seconds = 1): Buffer {
  const rate = 8000;
  const freq = 220 + (createHash('sha256').update(prompt).digest()[0]! % 440);
  const n = rate * seconds;
  const data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * freq * i) / rate) * 8000 * (1 - i / n)), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

function renderModel(prompt: string): string {
  const [c] = colours(prompt);
  return JSON.stringify({
    asset: { version: '2.0', generator: 'atelier-simulated' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ name: prompt.slice(0, 60), mesh: 0 }],
    meshes: [{ name: 'box', primitives: [{ attributes: {}, material: 0 }] }],
    materials: [{ pbrMetallicRoughness: { baseColorFactor: [...c!.map((v) => v / 255), 1] } }],
  });
}

export class SimulatedProvider implements GenerationProvider {
  readonly name = 'simulated';
  private readonly jobs = new Map<string, Job>();
  private readonly byKey = new Map<string, string>();
  private readonly listeners = new Set<(u: ProviderUpdate) => void>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly random: () => number;
  submits = 0;

  constructor(private readonly opts: SimulatedOptions) {
    this.random = rng(opts.seed ?? 42);
    mkdirSync(opts.filesDir, { recursive: true });
  }

  onUpdate(listener: (u: ProviderUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Simulated prices, in cents. */
  static readonly PRICES: Record<GenerationKind, number> = { IMAGE: 4, VIDEO: 40, AUDIO: 8, MODEL_3D: 60 };

  async quote(req: GenerationRequest): Promise<number> {
    return SimulatedProvider.PRICES[req.kind];
  }

  async submit(req: GenerationRequest): Promise<{ upstreamJobId: string }> {
    this.submits++;
    const existing = this.byKey.get(req.idempotencyKey);
    if (existing) return { upstreamJobId: existing }; // the provider honours idempotency keys
    const latency = this.opts.latencyMs?.[req.kind] ?? { IMAGE: 200, VIDEO: 800, AUDIO: 400, MODEL_3D: 1000 }[req.kind];
    const job: Job = { id: `sim_${randomUUID()}`, req, created: Date.now(), latency, fails: this.random() < (this.opts.failureRate ?? 0) };
    this.jobs.set(job.id, job);
    this.byKey.set(req.idempotencyKey, job.id);
    this.schedule(job);
    // The job exists upstream, but the answer may be lost on the way back.
    if (this.random() < (this.opts.unknownSubmitRate ?? 0)) throw new SubmissionOutcomeUnknown();
    return { upstreamJobId: job.id };
  }

  async lookup(idempotencyKey: string) {
    const id = this.byKey.get(idempotencyKey);
    return id ? { upstreamJobId: id } : null;
  }

  async status(upstreamJobId: string): Promise<ProviderUpdate> {
    const job = this.jobs.get(upstreamJobId);
    if (!job) return { upstreamJobId, status: 'FAILED', error: 'unknown job' };
    const t = (Date.now() - job.created) / job.latency;
    if (t < 0.2) return { upstreamJobId, status: 'QUEUED', progress: 0 };
    if (t < 1) return { upstreamJobId, status: 'RUNNING', progress: Math.round(t * 100) / 100 };
    return this.final(job);
  }

  async cancel(upstreamJobId: string) {
    this.jobs.delete(upstreamJobId);
  }

  close() {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private final(job: Job): ProviderUpdate {
    if (job.fails) return { upstreamJobId: job.id, status: 'FAILED', error: 'simulated provider failure' };
    job.files ??= this.render(job);
    return { upstreamJobId: job.id, status: 'SUCCEEDED', progress: 1, files: job.files };
  }

  private render(job: Job): GeneratedFile[] {
    const { kind, prompt } = job.req;
    const file = (ext: string, mime: string, body: Buffer | string, dims?: { width: number; height: number }): GeneratedFile => {
      const path = join(this.opts.filesDir, `${job.id}.${ext}`);
      writeFileSync(path, body);
      return { path, mime, bytes: Buffer.byteLength(body), ...dims };
    };
    if (kind === 'IMAGE') return [file('png', 'image/png', renderImage(prompt), { width: 256, height: 256 })];
    if (kind === 'VIDEO') return [file('svg', 'image/svg+xml', renderVideo(prompt), { width: 320, height: 180 })];
    if (kind === 'AUDIO') return [file('wav', 'audio/wav', renderAudio(prompt))];
    return [file('gltf', 'model/gltf+json', renderModel(prompt))];
  }

  private emit(u: ProviderUpdate) {
    // Callbacks carry the client's reference (like webhook metadata), so one that arrives before
    // submit() has returned the upstream id can still be matched to its job.
    const withKey = { ...u, idempotencyKey: this.jobs.get(u.upstreamJobId)?.req.idempotencyKey };
    for (const l of this.listeners) l(withKey);
  }

  private later(ms: number, fn: () => void) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    t.unref();
    this.timers.add(t);
  }

  /** Callbacks: running, progress, final — each possibly duplicated, reordered or dropped. */
  private schedule(job: Job) {
    const r = this.random;
    const steps: [number, () => ProviderUpdate][] = [
      [job.latency * 0.2, () => ({ upstreamJobId: job.id, status: 'RUNNING', progress: 0.1 })],
      [job.latency * 0.6, () => ({ upstreamJobId: job.id, status: 'RUNNING', progress: 0.6 })],
      [job.latency, () => this.final(job)],
    ];
    for (const [at, make] of steps) {
      const isFinal = at === job.latency;
      if (isFinal && r() < (this.opts.missingCallbackRate ?? 0)) continue;
      this.later(at, () => this.emit(make()));
      if (r() < (this.opts.duplicateCallbackRate ?? 0)) this.later(at + 5, () => this.emit(make()));
      // A stale progress callback delivered after the final one.
      if (!isFinal && r() < (this.opts.outOfOrderRate ?? 0)) this.later(job.latency + 20, () => this.emit(make()));
    }
  }
}
