// POST /hooks/generation/<provider>: callbacks from a generation provider that calls back over HTTP
// (the provider service, server/provider/). No user credential: the provider's signature is the
// authentication, checked by the provider's client (generation/http-provider.ts) before anything is
// done; an unsigned or forged delivery is refused with 401 and changes nothing. Updates then take
// the same path as in-process callbacks (listenToProvider → applyUpdate).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../services/deps.ts';

function reply(res: ServerResponse, status: number, body?: unknown) {
  if (body === undefined || status === 204) {
    res.writeHead(status);
    return res.end();
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function handleProviderHook(deps: Deps, req: IncomingMessage, res: ServerResponse, provider: string) {
  if (req.method !== 'POST') return reply(res, 405, { error: 'Use POST.' });
  const receiver = deps.jobs.provider.callbackReceiver?.(provider);
  if (!receiver) return reply(res, 404, { error: 'Not found' });
  const limit = deps.config.maxBodyBytes;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > limit) {
      res.setHeader('connection', 'close');
      return reply(res, 413, { error: 'Body too large' });
    }
    chunks.push(c);
  }
  const r = await receiver.receiveCallback(Buffer.concat(chunks).toString('utf8'), req.headers);
  return reply(res, r.status, r.error ? { error: r.error } : undefined);
}
