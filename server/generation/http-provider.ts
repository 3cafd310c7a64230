// The client of a provider service over HTTP (server/provider/server.ts speaks the protocol of
// provider-protocol.ts). It presents the name `simulated`, like the in-process provider it replaces,
// so job rows and reconciliation match whichever of the two a process runs.
//
// Failures are classified by what they say about the job upstream:
//   - submit: a refused connection never reached the service (retried briefly, then an error: the
//     job fails, nothing was made); a timeout, a dropped connection or a 5xx after sending may have
//     created it → SubmissionOutcomeUnknown (reconciliation looks it up by key, never resubmits);
//     a 4xx is a refusal → an error.
//   - status / lookup / cancel: any failure throws, so reconciliation tries again later; a service
//     that is down is never reported as a FAILED job. Only a 404 for a job id is an answer.
// Result files are downloaded into `filesDir` (as `<job id>.<ext>`, what the API's /files route
// serves) before an update is handed on, so every GeneratedFile path is local to this process.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log.ts';
import { Capabilities, FILE_NAME, webhookFor, WireJob } from './provider-protocol.ts';
import { ProviderUnavailable, SubmissionOutcomeUnknown, type CallbackReceiver, type GeneratedFile, type GenerationProvider, type GenerationRequest, type ProviderUpdate } from './types.ts';

export type HttpProviderOptions = {
  /** The service's base URL (a function: a supervisor may move it). */
  baseUrl: string | (() => string);
  secret: string;
  /** Where result files are downloaded to (the API's files directory). */
  filesDir: string;
  /** Fixed callback URL; otherwise derived from the API's URL once it listens (`useCallbackBase`). */
  callbackUrl?: string;
  /** Per request; a submit that takes longer has an unknown outcome. */
  timeoutMs?: number;
  /** How long a refused connection is retried (submit, quote) before it counts as a failure. */
  connectRetryMs?: number;
  log?: Logger;
  /** The egress gate's fetch for the deployment (the service is a configured destination); unset: the global fetch. */
  fetch?: (url: string, init?: RequestInit) => Promise<Response>;
};

/** The service is not there (nothing was sent): safe to try again. */
function refused(e: unknown): boolean {
  const code = ((e as Error)?.cause as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ECONNREFUSED';
}

function describe(e: unknown): string {
  const cause = (e as Error)?.cause as Error | undefined;
  return cause?.message ? `${(e as Error).message}: ${cause.message}` : (e as Error).message;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class HttpGenerationProvider implements GenerationProvider, CallbackReceiver {
  readonly name = 'simulated';
  private readonly listeners = new Set<(u: ProviderUpdate) => void>();
  private readonly webhook;
  private callbackUrl: string | undefined;
  private prices: Record<string, number> | undefined;

  constructor(private readonly opts: HttpProviderOptions) {
    this.webhook = webhookFor(opts.secret);
    this.callbackUrl = opts.callbackUrl;
    mkdirSync(opts.filesDir, { recursive: true });
  }

  private get base() {
    const b = typeof this.opts.baseUrl === 'function' ? this.opts.baseUrl() : this.opts.baseUrl;
    return b.replace(/\/+$/, '');
  }

  onUpdate(listener: (u: ProviderUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  callbackReceiver(name: string): CallbackReceiver | undefined {
    return name === this.name ? this : undefined;
  }

  useCallbackBase(baseUrl: string) {
    // The first API address wins; a configured callback URL always does.
    this.callbackUrl ??= `${baseUrl.replace(/\/+$/, '')}/hooks/generation/${this.name}`;
  }

  async quote(req: GenerationRequest): Promise<number> {
    // Prices are the service's, fetched once: quotes must not depend on the service being up later.
    if (!this.prices) {
      const caps = Capabilities.parse(await this.withConnectRetry(() => this.call('GET', '/v1/capabilities')));
      this.prices = caps.prices;
    }
    // Own keys only: a kind named like an object built-in ("constructor") is not on offer either.
    const price = Object.hasOwn(this.prices, req.kind) ? this.prices[req.kind] : undefined;
    if (typeof price !== 'number') throw new Error(`the provider does not offer ${req.kind}`);
    return price;
  }

  async submit(req: GenerationRequest): Promise<{ upstreamJobId: string }> {
    let res: Response;
    try {
      res = await this.withConnectRetry(() =>
        this.fetch('POST', '/v1/jobs', {
          headers: { 'idempotency-key': req.idempotencyKey },
          body: { kind: req.kind, prompt: req.prompt, params: req.params ?? {}, idempotencyKey: req.idempotencyKey, ...(this.callbackUrl ? { callbackUrl: this.callbackUrl } : {}) },
        }),
      );
    } catch (e) {
      if (refused(e)) throw new ProviderUnavailable(`the provider is unreachable at ${this.base} (${describe(e)})`);
      // Sent, and then the answer was lost (timeout, reset): the job may exist.
      throw new SubmissionOutcomeUnknown(`no answer from the provider: ${describe(e)}`);
    }
    if (res.status >= 500) throw new SubmissionOutcomeUnknown(`the provider answered ${res.status} to a submission`);
    let body: unknown;
    try {
      body = await res.json();
    } catch (e) {
      if (res.ok) throw new SubmissionOutcomeUnknown(`the provider's answer was cut off: ${describe(e)}`);
      body = null;
    }
    if (!res.ok) throw new Error(`the provider refused the submission (${res.status}): ${(body as { error?: string } | null)?.error ?? ''}`.trim());
    return { upstreamJobId: WireJob.parse(body).id };
  }

  async status(upstreamJobId: string): Promise<ProviderUpdate> {
    try {
      return await this.toUpdate(WireJob.parse(await this.call('GET', `/v1/jobs/${encodeURIComponent(upstreamJobId)}`)));
    } catch (e) {
      // The one definite answer: the service (whose jobs are durable) has no such job.
      if (e instanceof HttpError && e.status === 404) return { upstreamJobId, status: 'FAILED', error: 'unknown job' };
      throw e;
    }
  }

  async lookup(idempotencyKey: string): Promise<{ upstreamJobId: string } | null> {
    try {
      const job = WireJob.parse(await this.call('GET', `/v1/jobs?idempotency_key=${encodeURIComponent(idempotencyKey)}`));
      return { upstreamJobId: job.id };
    } catch (e) {
      if (e instanceof HttpError && e.status === 404) return null;
      throw e;
    }
  }

  async cancel(upstreamJobId: string): Promise<{ made: boolean }> {
    try {
      const r = (await this.call('POST', `/v1/jobs/${encodeURIComponent(upstreamJobId)}/cancel`)) as { made?: unknown };
      return { made: r.made === true };
    } catch (e) {
      if (e instanceof HttpError && e.status === 404) return { made: false };
      throw e;
    }
  }

  /**
   * A callback delivery (POST /hooks/generation/simulated). Unsigned or forged → 401 and nothing
   * happens. Verified → the result files are fetched, then the update goes to the listeners; a
   * failure there answers 502 so that the service delivers it again.
   */
  async receiveCallback(body: string, headers: Record<string, string | string[] | undefined>): Promise<{ status: number; error?: string }> {
    const h: Record<string, string> = {};
    for (const k of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const v = headers[k];
      if (typeof v === 'string') h[k] = v;
    }
    let payload: unknown;
    try {
      payload = this.webhook.verify(body, h);
    } catch (e) {
      return { status: 401, error: (e as Error).message };
    }
    const parsed = WireJob.safeParse(payload);
    if (!parsed.success) return { status: 400, error: 'not a job update' };
    let update: ProviderUpdate;
    try {
      update = await this.toUpdate(parsed.data);
    } catch (e) {
      this.opts.log?.warn('callback files not fetched; the provider will deliver it again', { upstreamJobId: parsed.data.id, error: describe(e) });
      return { status: 502, error: 'result files could not be fetched' };
    }
    for (const l of this.listeners) l(update);
    return { status: 204 };
  }

  close() {
    this.listeners.clear();
  }

  private async toUpdate(w: WireJob): Promise<ProviderUpdate> {
    const files: GeneratedFile[] | undefined = w.files ? [] : undefined;
    for (const f of w.files ?? []) files!.push({ path: await this.download(f.name, f.bytes), mime: f.mime, bytes: f.bytes, ...(f.width ? { width: f.width } : {}), ...(f.height ? { height: f.height } : {}) });
    return {
      upstreamJobId: w.id,
      ...(w.idempotencyKey ? { idempotencyKey: w.idempotencyKey } : {}),
      status: w.status,
      ...(w.progress !== undefined ? { progress: w.progress } : {}),
      ...(w.error ? { error: w.error } : {}),
      ...(files ? { files } : {}),
    };
  }

  /** Fetches a result file once (a file of the announced size is already complete: written by rename). */
  private async download(name: string, bytes: number): Promise<string> {
    if (!FILE_NAME.test(name)) throw new Error(`refusing the file name ${JSON.stringify(name)}`);
    const path = join(this.opts.filesDir, name);
    if (existsSync(path) && statSync(path).size === bytes) return path;
    const res = await this.fetch('GET', `/v1/files/${encodeURIComponent(name)}`);
    if (!res.ok) throw new HttpError(res.status, `file ${name}: HTTP ${res.status}`);
    const data = Buffer.from(await res.arrayBuffer());
    if (data.length !== bytes) throw new Error(`file ${name}: ${data.length} bytes, ${bytes} announced`);
    const tmp = `${path}.${randomUUID().slice(0, 8)}.part`;
    try {
      writeFileSync(tmp, data);
      renameSync(tmp, path);
    } catch (e) {
      if (existsSync(tmp)) unlinkSync(tmp);
      throw e;
    }
    return path;
  }

  private async call(method: string, path: string): Promise<unknown> {
    const res = await this.fetch(method, path);
    const body = (await res.json().catch(() => null)) as { error?: string } | null;
    if (!res.ok) throw new HttpError(res.status, `provider ${method} ${path}: HTTP ${res.status}${body?.error ? ` (${body.error})` : ''}`);
    return body;
  }

  private fetch(method: string, path: string, o: { headers?: Record<string, string>; body?: unknown } = {}): Promise<Response> {
    return (this.opts.fetch ?? fetch)(`${this.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.opts.secret}`, ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers },
      ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
      signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
    });
  }

  /** Retries while the connection is refused (a restarting service): nothing was sent, so it is safe. */
  private async withConnectRetry<T>(fn: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + (this.opts.connectRetryMs ?? 5000);
    for (let wait = 100; ; wait = Math.min(wait * 2, 1000)) {
      try {
        return await fn();
      } catch (e) {
        if (!refused(e) || Date.now() + wait > deadline) throw e;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }
}
