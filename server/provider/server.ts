// The simulated provider as a service of its own, speaking HTTP JSON like a real generation
// provider. The simulation (latency, faults, files) is the in-process provider's (simulation.ts);
// what this adds is what a real provider has: jobs that outlive the client and the service itself
// (store.ts), signed callbacks over HTTP, retried with backoff while the receiver is down, and files
// served by URL.
//
//   GET  /health                               liveness (no auth)
//   POST /v1/jobs                               submit; `Idempotency-Key` (or body.idempotencyKey): same key → same job
//   GET  /v1/jobs/<id>                          status
//   GET  /v1/jobs?idempotency_key=<key>         lookup
//   POST /v1/jobs/<id>/cancel                   → { made, job }: a finished job stays as it is
//   GET  /v1/capabilities, GET /v1/quote?kind=  kinds and prices (cents)
//   GET  /v1/files/<name>                       a result file
// Everything under /v1 needs `Authorization: Bearer <secret>`; callbacks are signed with the same
// secret (Standard Webhooks).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { isGenerationKind } from '../domain/generation.ts';
import type { Logger } from '../log.ts';
import { bearerMatches, FILE_NAME, SubmitBody, webhookFor, type WireJob } from '../generation/provider-protocol.ts';
import { GENERATION_KINDS, SIMULATED_PRICES, SimulationEngine, type SimJob, type SimulationSettings } from '../generation/simulation.ts';
import type { ProviderUpdate } from '../generation/types.ts';
import { JobStore } from './store.ts';

export type ProviderServerOptions = {
  /** The service's own directory: jobs.log, lock, endpoint.json, files/. */
  dir: string;
  host: string;
  port: number;
  secret: string;
  simulation: SimulationSettings;
  log: Logger;
  /** Waits before each new attempt at a callback the receiver did not take; then it is given up. */
  callbackRetryMs?: number[];
};

export type RunningProvider = { url: string; port: number; close(): Promise<void> };

const TERMINAL = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);
const MAX_BODY = 1_000_000;

function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A job as the API sees it: file names instead of this service's paths. */
export function toWire(u: ProviderUpdate, idempotencyKey?: string): WireJob {
  return {
    id: u.upstreamJobId,
    ...(idempotencyKey ?? u.idempotencyKey ? { idempotencyKey: idempotencyKey ?? u.idempotencyKey } : {}),
    status: u.status,
    ...(u.progress !== undefined ? { progress: u.progress } : {}),
    ...(u.error ? { error: u.error } : {}),
    ...(u.files ? { files: u.files.map((f) => ({ name: basename(f.path), mime: f.mime, bytes: f.bytes, ...(f.width ? { width: f.width } : {}), ...(f.height ? { height: f.height } : {}) })) } : {}),
  };
}

export async function startProviderServer(opts: ProviderServerOptions): Promise<RunningProvider> {
  const { log } = opts;
  const filesDir = join(opts.dir, 'files');
  const { store, jobs: stored } = JobStore.open(opts.dir);
  const webhook = webhookFor(opts.secret);
  const retryMs = opts.callbackRetryMs ?? [250, 1000, 4000];
  const retries = new Set<NodeJS.Timeout>();
  let closing = false;
  let messages = 0;
  let lostAnswers = 0;

  const engine = new SimulationEngine({ ...opts.simulation, filesDir, emit: (u, job) => deliver(u, job) });

  /** POSTs one update to the job's callback URL; retried with backoff, then given up (the client polls). */
  function deliver(u: ProviderUpdate, job: SimJob) {
    const url = typeof job.meta?.callbackUrl === 'string' ? job.meta.callbackUrl : null;
    if (!url) return;
    const body = JSON.stringify(toWire(u, job.req.idempotencyKey));
    // One id per message, the same on every attempt: receivers may deduplicate by it.
    const msgId = `msg_${job.id}_${++messages}`;
    const attempt = async (n: number) => {
      if (closing) return;
      let outcome: 'done' | 'retry' | 'refused';
      let detail = '';
      try {
        const now = new Date();
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': msgId,
            'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
            'webhook-signature': webhook.sign(msgId, now, body),
          },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer().catch(() => undefined);
        detail = `HTTP ${res.status}`;
        outcome = res.ok ? 'done' : res.status >= 500 || res.status === 408 || res.status === 429 ? 'retry' : 'refused';
      } catch (e) {
        detail = ((e as Error).cause as Error | undefined)?.message ?? (e as Error).message;
        outcome = 'retry';
      }
      if (outcome === 'done') {
        if (TERMINAL.has(u.status) && !closing) store.finalDelivered(job.id);
        return;
      }
      if (outcome === 'retry' && n < retryMs.length && !closing) {
        const t = setTimeout(() => {
          retries.delete(t);
          void attempt(n + 1);
        }, retryMs[n]);
        retries.add(t);
        return;
      }
      log.warn('callback given up', { jobId: job.id, status: u.status, attempts: n + 1, detail });
    };
    void attempt(0);
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch((e) => {
      log.error('provider request failed', { error: (e as Error).message });
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://provider');
    let path: string;
    try {
      path = decodeURI(url.pathname);
    } catch {
      return sendJson(res, 400, { error: 'the path is not valid percent-encoding' });
    }
    if (path === '/health') return sendJson(res, 200, { ok: true, pid: process.pid, jobs: engine.size });
    if (!path.startsWith('/v1/')) return sendJson(res, 404, { error: 'not found' });
    if (!bearerMatches(req.headers.authorization, opts.secret)) return sendJson(res, 401, { error: 'missing or wrong bearer token' });

    if (path === '/v1/capabilities' && req.method === 'GET') return sendJson(res, 200, { kinds: GENERATION_KINDS, prices: SIMULATED_PRICES });
    if (path === '/v1/quote' && req.method === 'GET') {
      const kind = url.searchParams.get('kind');
      // Not `kind in SIMULATED_PRICES`: that takes inherited names (`toString`) as kinds.
      if (!isGenerationKind(kind)) return sendJson(res, 400, { error: `unknown kind ${kind}` });
      return sendJson(res, 200, { kind, priceCents: SIMULATED_PRICES[kind] });
    }
    if (path === '/v1/jobs' && req.method === 'POST') return submit(req, res);
    if (path === '/v1/jobs' && req.method === 'GET') {
      const key = url.searchParams.get('idempotency_key');
      if (!key) return sendJson(res, 400, { error: 'idempotency_key is required' });
      const job = engine.lookup(key);
      return job ? sendJson(res, 200, toWire(engine.status(job), job.req.idempotencyKey)) : sendJson(res, 404, { error: 'no job for this key' });
    }
    const m = /^\/v1\/jobs\/([^/]+)(\/cancel)?$/.exec(path);
    if (m) {
      const job = engine.get(m[1]!);
      if (!job) return sendJson(res, 404, { error: 'unknown job' });
      if (!m[2] && req.method === 'GET') return sendJson(res, 200, toWire(engine.status(job), job.req.idempotencyKey));
      if (m[2] && req.method === 'POST') {
        const r = engine.cancel(job);
        // Durable before it is announced (the engine's callback goes out on a later tick) or answered.
        if (r.changed) store.cancelled(job.id, job.cancelledAt!);
        return sendJson(res, 200, { made: r.made, job: toWire(r.update, job.req.idempotencyKey) });
      }
      return sendJson(res, 405, { error: 'method not allowed' });
    }
    if (path.startsWith('/v1/files/') && (req.method === 'GET' || req.method === 'HEAD')) {
      const name = path.slice('/v1/files/'.length);
      if (!FILE_NAME.test(name)) return sendJson(res, 404, { error: 'not found' });
      const file = join(filesDir, name);
      const st = await stat(file).catch(() => null);
      if (!st?.isFile()) return sendJson(res, 404, { error: 'not found' });
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(st.size) });
      if (req.method === 'HEAD') return res.end();
      createReadStream(file).pipe(res);
      return;
    }
    return sendJson(res, 404, { error: 'not found' });
  }

  async function submit(req: IncomingMessage, res: ServerResponse) {
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return sendJson(res, 400, { error: 'the body is not JSON' });
    }
    const parsed = SubmitBody.safeParse(body);
    if (!parsed.success) return sendJson(res, 400, { error: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
    const header = req.headers['idempotency-key'];
    const key = (Array.isArray(header) ? header[0] : header) ?? parsed.data.idempotencyKey;
    if (!key) return sendJson(res, 400, { error: 'an Idempotency-Key is required' });
    const { kind, prompt, params, callbackUrl } = parsed.data;
    const outcome = engine.submit({ kind, prompt, params, idempotencyKey: key }, callbackUrl ? { callbackUrl } : undefined);
    if (outcome.created) {
      try {
        store.created(outcome.job); // fsynced: from here on the job survives a crash
      } catch (e) {
        engine.forget(outcome.job);
        throw e;
      }
      engine.arm(outcome.job);
    }
    if (outcome.answerLost) {
      // The job exists, but its submitter does not learn so: the connection drops or a gateway
      // times out — alternately, so clients meet both.
      if (lostAnswers++ % 2 === 0) {
        req.socket.destroy();
        return;
      }
      return sendJson(res, 504, { error: 'gateway timeout' });
    }
    return sendJson(res, outcome.created ? 201 : 200, toWire(engine.status(outcome.job), key));
  }

  for (const s of stored) engine.restore(s.job);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e) => {
      store.close();
      reject(e);
    });
    server.listen(opts.port, opts.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  const base = `http://${host}:${port}`;
  store.advertise(base);
  // Timers re-armed from each job's created time and latency: jobs that ended while the service was
  // down report their end now.
  for (const s of stored) engine.arm(s.job, { restored: true, finalDelivered: s.finalDelivered });
  if (stored.length) log.info('provider jobs restored', { jobs: stored.length });
  return {
    url: base,
    port,
    close: async () => {
      closing = true;
      engine.close();
      for (const t of retries) clearTimeout(t);
      retries.clear();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      store.close();
    },
  };
}
