// Sending one operation over HTTP or graphql-ws and recording what came back (errors, status,
// time, a socket closed under it, no answer), whatever the server does.
import type { Client as WsClient } from 'graphql-ws';
import { t } from './state.ts';

export type Op = 'query' | 'mutation' | 'subscription';

export type GqlError = { message: string; extensions?: { code?: string; [k: string]: unknown } };
export type Outcome = {
  transport: 'http' | 'ws';
  ms: number;
  status?: number;
  errors: GqlError[];
  data?: unknown;
  /** A subscription that started (data, or no error within the grace period). */
  open?: boolean;
  /** The socket closed under the operation (code). */
  closed?: number;
  hung?: boolean;
  unparsable?: string;
};

/** A JSON text spliced into the request body as is (values JSON.stringify cannot produce or would overflow on). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Whether a RawJson sits in the top levels of a value (where the sweep puts them). */
function hasRaw(v: unknown, depth = 0): boolean {
  if (v instanceof RawJson) return true;
  if (depth > 8 || v === null || typeof v !== 'object') return false;
  return Object.values(v).some((x) => hasRaw(x, depth + 1));
}

function toBody(query: string, variables: Record<string, unknown>): string {
  // JSON.stringify with a replacer recurses deeper per level: only used when there is a RawJson.
  if (!hasRaw(variables)) return JSON.stringify({ query, variables });
  const raws: string[] = [];
  const text = JSON.stringify({ query, variables }, (_k, v: unknown) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `\u0001RAW${raws.length - 1}\u0001`;
    }
    return v;
  });
  return text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]!);
}

export async function http(query: string, variables: Record<string, unknown> = {}, token = t.a.ownerToken, url = t.url): Promise<Outcome> {
  const body = toBody(query, variables);
  const started = performance.now();
  try {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', authorization: `Bearer ${token}` },
      body,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    const ms = performance.now() - started;
    try {
      const body = JSON.parse(text) as { data?: unknown; errors?: GqlError[] };
      return { transport: 'http', ms, status: res.status, errors: body.errors ?? [], data: body.data };
    } catch {
      return { transport: 'http', ms, status: res.status, errors: [], unparsable: text.slice(0, 200) };
    }
  } catch (e) {
    return { transport: 'http', ms: performance.now() - started, errors: [], hung: true, unparsable: String(e) };
  }
}

export function ws(client: WsClient, query: string, variables: Record<string, unknown>, op: Op): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const out: Outcome = { transport: 'ws', ms: 0, errors: [] };
    let done = false;
    let stop = () => {};
    const finish = (extra: Partial<Outcome> = {}) => {
      if (done) return;
      done = true;
      clearTimeout(hang);
      clearTimeout(grace);
      out.ms = performance.now() - started;
      stop();
      resolve({ ...out, ...extra });
    };
    const hang = setTimeout(() => finish({ hung: true }), 15_000);
    // A subscription that is accepted stays open: no error within the grace period means accepted.
    const grace = op === 'subscription' ? setTimeout(() => finish({ open: true }), 1500) : undefined;
    stop = client.subscribe(
      { query, variables },
      {
        next: (r) => {
          if (r.errors?.length) out.errors.push(...(r.errors as GqlError[]));
          out.data = r.data;
          if (op === 'subscription' && r.data && !r.errors?.length) finish({ open: true });
        },
        error: (e: unknown) => {
          if (Array.isArray(e)) out.errors.push(...(e as GqlError[]));
          else if (e && typeof e === 'object' && 'code' in e && 'reason' in e) return finish({ closed: Number((e as { code: number }).code) });
          else out.errors.push({ message: String(e) });
          finish();
        },
        complete: () => finish(),
      },
    );
  });
}
