// Tracing: a span for every model call, tool call, approval resolution and routing
// decision. Off by default and then free: with no tracer installed `traced` calls the function with
// a shared no-op span (no allocation of attributes beyond the literal, no clock reads by us).
// With OTEL_EXPORTER_OTLP_ENDPOINT set, spans go to that OTLP/HTTP endpoint (installOtlpTracer).
//
// Privacy: attributes carry ids, counts, names, decisions and timings — never a person's text.
// Tool parameters pass through sanitizeParams (strings become a hash and a length) and any string
// attribute not on the allow-list is hashed before export.
import { createHash } from 'node:crypto';

export type Attrs = Record<string, string | number | boolean | undefined>;

export interface SpanHandle {
  set(attrs: Attrs): void;
}

export interface Tracer {
  start(name: string, attrs: Attrs): { set(attrs: Attrs): void; end(error?: unknown): void };
}

const NOOP: SpanHandle = { set() {} };
let current: Tracer | null = null;

/** Installs the process's tracer (null: off). Returns the previous one. */
export function setTracer(t: Tracer | null): Tracer | null {
  const prev = current;
  current = t;
  return prev;
}

/** Attribute keys whose string values are ours (ids, names, enums), exported as they are. */
const PLAIN = new Set([
  'atelier.task',
  'atelier.turn',
  'atelier.step',
  'atelier.tool',
  'atelier.call',
  'atelier.model',
  'atelier.routing.role',
  'atelier.routing.reason',
  'atelier.policy.decision',
  'atelier.policy.rule',
  'atelier.run',
  // The agent principal that acted (an id of ours) — the seed's agent.id / agent.version.
  'agent.id',
  'atelier.approval',
  'atelier.approval.status',
  'atelier.tool.safety',
  'atelier.tool.status',
  'atelier.toolset.reason',
  'atelier.params',
  'error.class',
]);

export function hashText(s: string): string {
  return `sha256:${createHash('sha256').update(s).digest('hex').slice(0, 16)}`;
}

/** Tool parameters without personal text: strings → hash + length; structure and numbers kept. */
export function sanitizeParams(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return `${hashText(v)}/${v.length}`;
  if (typeof v !== 'object' || v === null) return v;
  if (depth > 3) return '[…]';
  if (Array.isArray(v)) return v.slice(0, 20).map((x) => sanitizeParams(x, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sanitizeParams(x, depth + 1)]));
}

/** Drops undefined values and hashes string values of keys not on the allow-list. */
export function sanitizeAttrs(a: Attrs): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(a)) {
    if (v === undefined) continue;
    out[k] = typeof v === 'string' && !PLAIN.has(k) ? hashText(v) : v;
  }
  return out;
}

/** Runs fn inside a span (when tracing is on); the span ends with fn, recording its error class. */
export async function traced<T>(name: string, attrs: Attrs, fn: (span: SpanHandle) => Promise<T>): Promise<T> {
  const t = current;
  if (!t) return fn(NOOP);
  const started = Date.now();
  const span = t.start(name, attrs);
  try {
    const out = await fn(span);
    span.set({ 'atelier.latency_ms': Date.now() - started });
    span.end();
    return out;
  } catch (e) {
    span.set({ 'atelier.latency_ms': Date.now() - started });
    span.end(e);
    throw e;
  }
}

/** A zero-length span for a decision (routing, tool-set choice). */
export function event(name: string, attrs: Attrs): void {
  const t = current;
  if (!t) return;
  t.start(name, attrs).end();
}

/** Adapts an OpenTelemetry API tracer. */
export function fromOtel(tracer: import('@opentelemetry/api').Tracer, api: typeof import('@opentelemetry/api')): Tracer {
  return {
    start(name, attrs) {
      const span = tracer.startSpan(name, { attributes: sanitizeAttrs(attrs) });
      return {
        set: (a) => span.setAttributes(sanitizeAttrs(a)),
        end: (error) => {
          if (error !== undefined) {
            span.setAttribute('error.class', error instanceof Error ? error.name : typeof error);
            span.setStatus({ code: api.SpanStatusCode.ERROR });
          }
          span.end();
        },
      };
    },
  };
}

/**
 * Installs an OTLP/HTTP exporter when OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise does nothing
 * (the packages are not even loaded). Returns a shutdown function that flushes.
 */
export async function installOtlpTracer(env: NodeJS.ProcessEnv = process.env): Promise<(() => Promise<void>) | null> {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return null;
  const api = await import('@opentelemetry/api');
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` });
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  setTracer(fromOtel(provider.getTracer('atelier'), api));
  return async () => {
    await provider.shutdown();
    setTracer(null);
  };
}
