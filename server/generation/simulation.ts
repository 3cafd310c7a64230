// The simulation behind the simulated provider, shared by the in-process `SimulatedProvider`
// (simulated.ts) and the provider service (server/provider/): configurable latency per kind,
// failures, submissions with unknown outcome, duplicate, out-of-order and missing callbacks — and
// real files (PNG images, animated SVG "video", WAV audio, glTF models) rendered from the prompt.
// Deterministic for a given seed.
//
// Every fault is drawn once, at submit, and kept on the job; a job's timeline (queued → running →
// final) derives from its `created` time and latency alone. So a service that persists its jobs
// can re-arm the same callbacks after a restart, and `status` answers the same whoever asks.
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodePng } from './png.ts';
import { GENERATION_KINDS, isGenerationKind, type SimulationSettings } from '../domain/generation.ts';
import type { GeneratedFile, GenerationKind, GenerationRequest, ProviderUpdate } from './types.ts';

export type { SimulationSettings };
export { GENERATION_KINDS };

export const DEFAULT_LATENCY_MS: Record<GenerationKind, number> = { IMAGE: 200, VIDEO: 800, AUDIO: 400, MODEL_3D: 1000 };

/** Simulated prices, in cents. */
export const SIMULATED_PRICES: Record<GenerationKind, number> = { IMAGE: 4, VIDEO: 40, AUDIO: 8, MODEL_3D: 60 };

/**
 * Refuses a kind the simulation does not make. Without it a stray kind had no price (a quote of
 * `undefined`) and was rendered as a glTF model, charged as nothing.
 */
export function assertSimulatedKind(kind: unknown): asserts kind is GenerationKind {
  if (!isGenerationKind(kind)) throw new Error(`the simulated provider does not offer ${String(kind)}`);
}

/** One callback of a job's timeline, with the faults drawn for it. */
export type PlannedCallback = { at: number; skip?: boolean; duplicate?: boolean; late?: boolean };

export type SimJob = {
  id: string;
  req: GenerationRequest;
  /** Epoch ms; the whole timeline derives from it and `latency`. */
  created: number;
  latency: number;
  fails: boolean;
  /** Fractions of the latency: 0.2 (running), 0.6 (progress), 1 (final). */
  plan: PlannedCallback[];
  /** Epoch ms of a cancellation that came before the job finished (a later one changes nothing). */
  cancelledAt?: number;
  /** The service's data about the job (e.g. its callback URL); the engine never reads it. */
  meta?: Record<string, unknown>;
};

/** Where `final` renders files, and what it remembers of them (files are re-rendered idempotently). */
const rendered = new WeakMap<SimJob, GeneratedFile[]>();

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

export function renderVideo(prompt: string): string {
  const [a, b] = colours(prompt).map((c) => `rgb(${c.join(',')})`);
  const title = prompt.replace(/[<&>"]/g, ' ').slice(0, 60);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180" viewBox="0 0 320 180">
<rect width="320" height="180" fill="${a}"><animate attributeName="fill" values="${a};${b};${a}" dur="4s" repeatCount="indefinite"/></rect>
<circle cx="40" cy="90" r="24" fill="${b}"><animate attributeName="cx" values="40;280;40" dur="4s" repeatCount="indefinite"/></circle>
<text x="160" y="170" font-family="sans-serif" font-size="12" text-anchor="middle" fill="#fff">${title}</text></svg>\n`;
}

export function renderAudio(prompt: string, seconds = 1): Buffer {
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

export function renderModel(prompt: string): string {
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

/**
 * Writes a job's result files as `<filesDir>/<job id>.<ext>` (the name the API's /files route
 * serves). Written to a temporary name and renamed, so a reader never sees half a file — the same
 * job may be rendered again (another process, a restart) while its file is being read.
 */
export function renderFiles(job: { id: string; req: Pick<GenerationRequest, 'kind' | 'prompt'> }, filesDir: string): GeneratedFile[] {
  const { kind, prompt } = job.req;
  const file = (ext: string, mime: string, body: Buffer | string, dims?: { width: number; height: number }): GeneratedFile => {
    const path = join(filesDir, `${job.id}.${ext}`);
    const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
    writeFileSync(tmp, body);
    renameSync(tmp, path);
    return { path, mime, bytes: Buffer.byteLength(body), ...dims };
  };
  if (kind === 'IMAGE') return [file('png', 'image/png', renderImage(prompt), { width: 256, height: 256 })];
  if (kind === 'VIDEO') return [file('svg', 'image/svg+xml', renderVideo(prompt), { width: 320, height: 180 })];
  if (kind === 'AUDIO') return [file('wav', 'audio/wav', renderAudio(prompt))];
  return [file('gltf', 'model/gltf+json', renderModel(prompt))];
}

export type EngineOptions = SimulationSettings & {
  filesDir: string;
  /** A callback to deliver (already carrying the job's idempotency key). */
  emit: (u: ProviderUpdate, job: SimJob) => void;
};

export type SubmitOutcome = {
  job: SimJob;
  /** False when the idempotency key already had a job (nothing new was created). */
  created: boolean;
  /** The job exists, but its submitter is not to learn so (an unknown-outcome submission). */
  answerLost: boolean;
};

export type CancelOutcome = {
  /** Whether a result exists (and is charged): a job that had finished stays SUCCEEDED. */
  made: boolean;
  /** The cancellation changed the job (it had not finished). */
  changed: boolean;
  update: ProviderUpdate;
};

/** Jobs, their timelines and their faults. Persistence is the caller's: see `restore`. */
export class SimulationEngine {
  private readonly jobs = new Map<string, SimJob>();
  private readonly byKey = new Map<string, string>();
  private readonly timers = new Map<string, Set<NodeJS.Timeout>>();
  private readonly random: () => number;

  constructor(private readonly opts: EngineOptions) {
    this.random = rng(opts.seed ?? 42);
    mkdirSync(opts.filesDir, { recursive: true });
  }

  get size() {
    return this.jobs.size;
  }

  /**
   * Creates a job for a new idempotency key (the same key always answers its first job). The caller
   * persists a created job before `arm`ing it and before answering anyone.
   */
  submit(req: GenerationRequest, meta?: Record<string, unknown>): SubmitOutcome {
    // Before the key is looked up: a refused request never answers a job, not even an earlier one.
    assertSimulatedKind(req.kind);
    const existing = this.lookup(req.idempotencyKey);
    if (existing) return { job: existing, created: false, answerLost: false };
    const r = this.random;
    const latency = this.opts.latencyMs?.[req.kind] ?? DEFAULT_LATENCY_MS[req.kind];
    // The draws happen in a fixed order (failure, then per callback: missing, duplicate, late; then
    // the lost answer), so one seed gives one run.
    const fails = r() < (this.opts.failureRate ?? 0);
    const plan: PlannedCallback[] = [];
    for (const at of [0.2, 0.6, 1]) {
      const isFinal = at === 1;
      if (isFinal && r() < (this.opts.missingCallbackRate ?? 0)) {
        plan.push({ at, skip: true });
        continue;
      }
      const duplicate = r() < (this.opts.duplicateCallbackRate ?? 0);
      // A stale progress callback delivered after the final one.
      const late = !isFinal && r() < (this.opts.outOfOrderRate ?? 0);
      plan.push({ at, ...(duplicate ? { duplicate } : {}), ...(late ? { late } : {}) });
    }
    const job: SimJob = { id: `sim_${randomUUID()}`, req, created: Date.now(), latency, fails, plan, ...(meta ? { meta } : {}) };
    this.jobs.set(job.id, job);
    this.byKey.set(req.idempotencyKey, job.id);
    const answerLost = r() < (this.opts.unknownSubmitRate ?? 0);
    return { job, created: true, answerLost };
  }

  get(id: string): SimJob | undefined {
    return this.jobs.get(id);
  }

  lookup(idempotencyKey: string): SimJob | undefined {
    const id = this.byKey.get(idempotencyKey);
    return id ? this.jobs.get(id) : undefined;
  }

  /** The job's state now: derived from its timeline, so polls and callbacks always agree. */
  status(job: SimJob, now = Date.now()): ProviderUpdate {
    if (job.cancelledAt !== undefined) return { upstreamJobId: job.id, status: 'CANCELLED', error: 'cancelled before it finished' };
    const t = job.latency > 0 ? (now - job.created) / job.latency : 1;
    if (t < 0.2) return { upstreamJobId: job.id, status: 'QUEUED', progress: 0 };
    if (t < 1) return { upstreamJobId: job.id, status: 'RUNNING', progress: Math.round(t * 100) / 100 };
    return this.final(job);
  }

  /**
   * Cancels a job that has not finished: it ends CANCELLED and nothing is made. A finished job is
   * left as it is (a SUCCEEDED one keeps its result, and its price). The caller persists a change
   * (`changed`) before answering.
   */
  cancel(job: SimJob, now = Date.now()): CancelOutcome {
    const finished = job.cancelledAt !== undefined || now >= job.created + job.latency;
    if (finished) {
      const update = this.status(job, now);
      return { made: update.status === 'SUCCEEDED', changed: false, update };
    }
    job.cancelledAt = now;
    this.disarm(job.id);
    // Announced on a later tick: a service persists the cancellation first (synchronously, right
    // after this returns), so no callback ever says more than the store knows.
    this.later(job.id, 0, () => this.emitState(job));
    return { made: false, changed: true, update: this.status(job, now) };
  }

  /**
   * Schedules the job's remaining callbacks. `restored`: the job comes from a store after a restart —
   * callbacks whose time has passed are not replayed, except the final one unless `finalDelivered`
   * (a job that finished while the service was down still reports its end).
   */
  arm(job: SimJob, opts: { restored?: boolean; finalDelivered?: boolean } = {}) {
    const now = Date.now();
    if (job.cancelledAt !== undefined) {
      if (opts.restored && !opts.finalDelivered) this.later(job.id, 0, () => this.emitState(job));
      return;
    }
    for (const step of job.plan) {
      if (step.skip) continue;
      const isFinal = step.at === 1;
      const at = job.created + job.latency * step.at;
      // The final callback reports the end whatever the clock says: a timer may fire a millisecond
      // before Date.now() reaches the end (timers run on a monotonic clock), and a final callback that
      // read RUNNING would leave the job to polling.
      const make = () => (isFinal ? this.status(job, Math.max(Date.now(), job.created + job.latency)) : ({ upstreamJobId: job.id, status: 'RUNNING', progress: step.at === 0.2 ? 0.1 : 0.6 } as ProviderUpdate));
      if (at < now && opts.restored) {
        if (isFinal && !opts.finalDelivered) this.later(job.id, 0, () => this.emit(job, make()));
        continue;
      }
      this.later(job.id, at - now, () => this.emit(job, make()));
      if (step.duplicate) this.later(job.id, at - now + 5, () => this.emit(job, make()));
      if (step.late) this.later(job.id, job.created + job.latency + 20 - now, () => this.emit(job, make()));
    }
  }

  /** Drops a job the service could not persist (it was never acknowledged). */
  forget(job: SimJob) {
    this.disarm(job.id);
    this.jobs.delete(job.id);
    if (this.byKey.get(job.req.idempotencyKey) === job.id) this.byKey.delete(job.req.idempotencyKey);
  }

  /** Adds a job from a store (no draws, no callbacks until `arm`). */
  restore(job: SimJob) {
    this.jobs.set(job.id, job);
    this.byKey.set(job.req.idempotencyKey, job.id);
  }

  /**
   * Stops every callback. A closed engine arms no new timers: a turn still finishing while its
   * process shuts down may order one more job, whose callbacks would otherwise fire after the
   * files directory is gone.
   */
  close() {
    this.closed = true;
    for (const set of this.timers.values()) for (const t of set) clearTimeout(t);
    this.timers.clear();
  }
  private closed = false;

  private final(job: SimJob): ProviderUpdate {
    if (job.fails) return { upstreamJobId: job.id, status: 'FAILED', error: 'simulated provider failure' };
    let files = rendered.get(job);
    if (!files) {
      files = renderFiles(job, this.opts.filesDir);
      rendered.set(job, files);
    }
    return { upstreamJobId: job.id, status: 'SUCCEEDED', progress: 1, files };
  }

  private emitState(job: SimJob) {
    this.opts.emit({ ...this.status(job), idempotencyKey: job.req.idempotencyKey }, job);
  }

  private emit(job: SimJob, u: ProviderUpdate) {
    // A cancelled job says nothing more than its cancellation (sent by `cancel`).
    if (job.cancelledAt !== undefined) return;
    // Callbacks carry the client's reference (like webhook metadata), so one that arrives before
    // submit() has returned the upstream id can still be matched to its job.
    this.opts.emit({ ...u, idempotencyKey: job.req.idempotencyKey }, job);
  }

  private later(jobId: string, ms: number, fn: () => void) {
    if (this.closed) return;
    let set = this.timers.get(jobId);
    if (!set) this.timers.set(jobId, (set = new Set()));
    const t = setTimeout(() => {
      set.delete(t);
      if (set.size === 0) this.timers.delete(jobId);
      fn();
    }, Math.max(0, ms));
    t.unref();
    set.add(t);
  }

  private disarm(jobId: string) {
    for (const t of this.timers.get(jobId) ?? []) clearTimeout(t);
    this.timers.delete(jobId);
  }
}
