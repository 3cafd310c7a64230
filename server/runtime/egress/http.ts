// One HTTP exchange for the egress gate: a fetch-shaped request over node:http/https whose
// connection goes to addresses the gate checked, never to what a second DNS answer says.
//
// Why not the global fetch: it resolves names inside its own connector, after any check we could
// make, so a name that answers a public address to the check and an internal one to the connect
// (DNS rebinding) would get through. Here the name is resolved once, every address is checked,
// and the socket is opened with a lookup that can only return those checked addresses.
//
// Invariants:
//  - Sockets are pooled (keep-alive) per host, port AND checked address set: a name that now
//    resolves elsewhere gets a new connection to the new, checked, address; a pooled socket is
//    only reused for the exact addresses it was opened to.
//  - Redirects are never followed here (the gate follows them, checking each hop).
//  - Errors look like fetch's: a TypeError('fetch failed') with the cause; an abort rejects with
//    the signal's reason.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

export type CheckedAddress = { address: string; family: 4 | 6 };

/** An Agent whose pool key includes the addresses the gate checked for the request. */
class PinnedAgent extends https.Agent {
  override getName(options: https.RequestOptions & { egressAddresses?: string }): string {
    return `${super.getName(options)}|${options.egressAddresses ?? ''}`;
  }
}
class PinnedHttpAgent extends http.Agent {
  override getName(options: http.ClientRequestArgs & { egressAddresses?: string }): string {
    return `${super.getName(options)}|${options.egressAddresses ?? ''}`;
  }
}

export type Agents = { http: http.Agent; https: https.Agent; close(): void };

export function createAgents(): Agents {
  // Idle sockets are closed after a few seconds: nothing waits long on a socket whose name may since
  // point elsewhere, and a closed gate leaves no handle open.
  const httpAgent = new PinnedHttpAgent({ keepAlive: true, timeout: 30_000, maxFreeSockets: 16 });
  const httpsAgent = new PinnedAgent({ keepAlive: true, timeout: 30_000, maxFreeSockets: 16 });
  return {
    http: httpAgent,
    https: httpsAgent,
    close: () => {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

/** A lookup that answers only the given, already checked, addresses. */
function fixedLookup(addresses: readonly CheckedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean; family?: number | string }, callback: (...args: unknown[]) => void) => {
    const family = options?.family === 4 || options?.family === 'IPv4' ? 4 : options?.family === 6 || options?.family === 'IPv6' ? 6 : 0;
    const usable = family ? addresses.filter((a) => a.family === family) : addresses;
    const list = usable.length ? usable : addresses;
    if (options?.all) callback(null, list.map((a) => ({ address: a.address, family: a.family })));
    else callback(null, list[0]!.address, list[0]!.family);
  }) as LookupFunction;
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

export type Exchange = {
  url: URL;
  method: string;
  headers: Headers;
  body: Buffer | null;
  signal: AbortSignal | null;
  /** The addresses to connect to (checked by the gate); empty for an IP literal host (no lookup). */
  addresses: readonly CheckedAddress[];
};

/** Sends one request and resolves with the response as it starts (its body streams). */
export function exchange(agents: Agents, x: Exchange): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    if (x.signal?.aborted) return reject(x.signal.reason);
    const secure = x.url.protocol === 'https:';
    const headers: Record<string, string> = {};
    x.headers.forEach((v, k) => {
      headers[k] = v;
    });
    // Bodies come back as sent: no compression is asked for (a server that compresses anyway is
    // decoded below).
    delete headers['accept-encoding'];
    if (x.body) headers['content-length'] = String(x.body.byteLength);
    const options: http.RequestOptions & { egressAddresses: string } = {
      method: x.method,
      headers,
      agent: secure ? agents.https : agents.http,
      egressAddresses: x.addresses.map((a) => a.address).join(','),
      ...(x.addresses.length ? { lookup: fixedLookup(x.addresses) } : {}),
    };
    let settled = false;
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      reject(x.signal?.aborted ? x.signal.reason : new TypeError('fetch failed', { cause: e }));
    };
    const req = (secure ? https : http).request(x.url, options, (res) => {
      if (settled) {
        res.destroy();
        return;
      }
      const status = res.statusCode ?? 0;
      if (status < 200 || status > 599) {
        res.destroy();
        return fail(new Error(`invalid status ${status}`));
      }
      const out = new Headers();
      const raw = res.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        try {
          out.append(raw[i]!, raw[i + 1]!);
        } catch {
          // A header value fetch would refuse is left out.
        }
      }
      let stream: Readable = res;
      const encoding = (out.get('content-encoding') ?? '').trim().toLowerCase();
      const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? createGunzip() : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : null;
      if (decoder) {
        stream = res.pipe(decoder);
        res.on('error', (e) => decoder.destroy(e));
        out.delete('content-encoding');
        out.delete('content-length');
      }
      const onAbort = () => stream.destroy(x.signal!.reason instanceof Error ? x.signal!.reason : new Error('aborted'));
      x.signal?.addEventListener('abort', onAbort, { once: true });
      stream.once('close', () => x.signal?.removeEventListener('abort', onAbort));
      const body = NULL_BODY_STATUS.has(status) || x.method === 'HEAD' ? null : (Readable.toWeb(stream) as ReadableStream<Uint8Array>);
      if (!body) res.resume();
      settled = true;
      const response = new Response(body, { status, statusText: res.statusMessage ?? '', headers: out });
      Object.defineProperty(response, 'url', { value: x.url.href });
      resolve(response);
    });
    req.on('error', fail);
    if (x.signal) {
      const onAbort = () => {
        req.destroy(x.signal!.reason instanceof Error ? x.signal!.reason : new Error('aborted'));
        fail(x.signal!.reason);
      };
      x.signal.addEventListener('abort', onAbort, { once: true });
      req.once('close', () => x.signal?.removeEventListener('abort', onAbort));
    }
    req.end(x.body ?? undefined);
  });
}
