// /a2a: Atelier as an A2A agent (JSON-RPC over HTTP, with SSE for streams) on the API's port, and
// its signed agent card at /.well-known/agent-card.json. Like /mcp: every request is authenticated
// on its own with a bearer API token (no session cookie: an A2A client is a program with a token),
// counted against the same per-token budget (ATELIER_RATE_LIMIT_PER_MINUTE, counted apart), and a
// browser page of another origin is refused (DNS rebinding), token or not.
//
// Versions: a request with `A2A-Version: 1.0` speaks A2A 1.0 (SendMessage, SendStreamingMessage,
// GetTask, CancelTask, SubscribeToTask, *TaskPushNotificationConfig); one without the header, or
// with 0.3, speaks 0.3 (message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe,
// tasks/pushNotificationConfig/*) through the SDK's compatibility layer. Both reach the same
// request handler (request-handler.ts), so both see the same tasks. A resubscription may send
// Last-Event-ID: the `atelier/seq` of the last update it received; it then gets every later one.
import { BodyTooLarge, header, knownHostCheck, originOf as originOfRequest, readBody } from '../request-parts.ts';
import { CALLBACK_PATH } from '../../runtime/a2a/delegate.ts';
import { receiveDelegationAnswer } from '../../services/a2a/delegation-answer.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AgentCard, formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from '@a2a-js/sdk';
import { JsonRpcTransportHandler, ServerCallContext, type A2ARequestHandler } from '@a2a-js/sdk/server';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { parseBearer } from '../../auth/tokens.ts';
import { authenticateToken, type Viewer } from '../../auth/viewer.ts';
import { isAppError } from '../../errors.ts';
import { RateLimiter } from '../../graphql/rate-limit.ts';
import type { Deps } from '../../services/deps.ts';
import { isTrustedOrigin } from '../origins.ts';
import { A2A_PATH, AGENT_CARD_PATH, agentCard, createCardSigner } from './card.ts';
import { createPushDelivery, type PushDelivery } from './push.ts';
import { CALL_KEY, createA2aRequestHandler, RESUME_KEY, SIGNAL_KEY } from './request-handler.ts';
import type { A2aCall } from './task-view.ts';

export type A2aHttp = {
  owns(pathname: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
  close(): Promise<void>;
};

// JSON-RPC error codes of the transport itself (the SDK maps the A2A errors of the methods).
const INVALID_REQUEST = -32600;
const UNAUTHENTICATED = -32001;
const CONTENT_TYPE_NOT_SUPPORTED = -32005;
const VERSION_NOT_SUPPORTED = -32009;
const RATE_LIMITED = -32000;


function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

const rpcError = (code: number, message: string, data?: unknown, id: unknown = null) => ({ jsonrpc: '2.0', id, error: { code, message, ...(data ? { data } : {}) } });

export function createA2aHttp(deps: Deps, opts: { push?: PushDelivery } = {}): A2aHttp {
  const limiter = new RateLimiter(deps.config.rateLimitPerMinute);
  const allowed = deps.config.allowedOrigins ?? [];
  const signer = createCardSigner(deps);
  const push = opts.push ?? createPushDelivery(deps.log);

  const originOf = (req: IncomingMessage): string => originOfRequest(deps.config, req);
  const knownHost = knownHostCheck(deps.config);

  /** The body as text, or null after answering 413 (in the endpoint's error shape) when it is too large. */
  async function bodyOr413(req: IncomingMessage, res: ServerResponse, shape: (message: string) => unknown): Promise<string | null> {
    try {
      return (await readBody(req, deps.config.maxBodyBytes)).toString('utf8');
    } catch (e) {
      if (!(e instanceof BodyTooLarge)) throw e;
      res.setHeader('connection', 'close');
      send(res, 413, shape(`Request body exceeds the limit of ${deps.config.maxBodyBytes} bytes`));
      return null;
    }
  }

  // What the transports ask the handler's card for is its capabilities (streaming), never its
  // URLs or signature: the unsigned card serves them; clients read the signed one at its path.
  const handler: A2ARequestHandler = createA2aRequestHandler({ card: async () => agentCard(deps, deps.config.files?.publicUrl ?? 'http://localhost'), push });
  const v1 = new JsonRpcTransportHandler(handler);
  const legacy = new LegacyJsonRpcTransportHandler(handler);

  async function handleCard(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET', 'access-control-allow-headers': 'a2a-version' });
      return res.end();
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { error: 'Method not allowed' }, { allow: 'GET' });
    const card = await signer.signed(originOf(req));
    const text = JSON.stringify(AgentCard.toJSON(card));
    // Public: any origin may read it (it names no secret).
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      'access-control-allow-origin': '*',
      'cache-control': 'max-age=60',
    });
    res.end(req.method === 'HEAD' ? undefined : text);
  }

  async function handleRpc(req: IncomingMessage, res: ServerResponse) {
    const origin = header(req, 'origin');
    if (origin !== null && (!isTrustedOrigin(origin, header(req, 'host'), allowed) || !knownHost(origin))) {
      return send(res, 403, rpcError(INVALID_REQUEST, 'Requests from this origin are not accepted; A2A clients send no Origin, or the server’s own'));
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, origin ? { 'access-control-allow-origin': origin, 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'authorization, content-type, a2a-version, a2a-extensions' } : {});
      return res.end();
    }
    if (req.method !== 'POST') return send(res, 405, rpcError(INVALID_REQUEST, 'A2A requests are POSTed (JSON-RPC)'), { allow: 'POST' });
    const token = parseBearer(header(req, 'authorization'));
    let viewer: Viewer;
    try {
      viewer = await authenticateToken(deps.prisma, token);
    } catch (e) {
      if (!isAppError(e)) throw e;
      return send(res, 401, rpcError(UNAUTHENTICATED, `${e.message} (${e.code})`, [{ code: e.code }]), { 'www-authenticate': `Bearer realm="atelier"${token ? ', error="invalid_token"' : ''}` });
    }
    if (!limiter.take(viewer.credentialId)) {
      const seconds = limiter.retryAfterSeconds(viewer.credentialId);
      return send(res, 429, rpcError(RATE_LIMITED, 'Too many requests for this token; slow down and retry shortly (RATE_LIMITED)', [{ code: 'RATE_LIMITED', retryAfterSeconds: seconds }]), { 'retry-after': String(seconds) });
    }
    const type = header(req, 'content-type')?.split(';', 1)[0]?.trim().toLowerCase();
    if (type && type !== 'application/json') {
      return send(res, 415, rpcError(CONTENT_TYPE_NOT_SUPPORTED, `Unsupported Content-Type "${type}"; send application/json`));
    }
    const version = header(req, 'a2a-version')?.trim() || '0.3';
    if (version !== '1.0' && version !== '0.3') {
      return send(res, 400, rpcError(VERSION_NOT_SUPPORTED, `A2A version ${version} is not supported; this server speaks 1.0 and 0.3`));
    }
    const body = await bodyOr413(req, res, (m) => rpcError(INVALID_REQUEST, m));
    if (body === null) return;
    const ac = new AbortController();
    res.on('close', () => ac.abort());
    const publicUrl = originOf(req);
    const call: A2aCall = { deps, viewer, publicUrl };
    const state = new Map<string, unknown>([[CALL_KEY, call], [SIGNAL_KEY, ac.signal]]);
    const lastEventId = header(req, 'last-event-id');
    if (lastEventId !== null) state.set(RESUME_KEY, /^\d{1,9}$/.test(lastEventId.trim()) ? Number(lastEventId.trim()) : lastEventId);
    const context = new ServerCallContext({ requestedVersion: version, state });
    const out = await (version === '1.0' ? v1 : legacy).handle(body, context);
    if (!out || typeof (out as AsyncGenerator)[Symbol.asyncIterator] !== 'function') return send(res, 200, out);

    // A stream: SSE, one JSON-RPC response per event. An error before the first event is a plain
    // JSON-RPC answer (nothing has started); after it, an `error` event ends the stream.
    const stream = out as AsyncGenerator<unknown>;
    const mapError = version === '1.0' ? JsonRpcTransportHandler.mapToJSONRPCError : LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError;
    const id = (() => {
      try {
        return (JSON.parse(body) as { id?: unknown }).id ?? null;
      } catch {
        return null;
      }
    })();
    let first: IteratorResult<unknown>;
    try {
      first = await stream.next();
    } catch (e) {
      return send(res, 200, { jsonrpc: '2.0', id, error: mapError(e) });
    }
    res.writeHead(200, { ...SSE_HEADERS });
    res.flushHeaders();
    try {
      if (!first.done) res.write(formatSSEEvent(first.value));
      while (!ac.signal.aborted) {
        const next = await stream.next();
        if (next.done) break;
        res.write(formatSSEEvent(next.value));
      }
    } catch (e) {
      if (!ac.signal.aborted) {
        deps.log.warn('a2a stream failed', { error: (e as Error)?.message });
        if (!res.writableEnded) res.write(formatSSEErrorEvent({ jsonrpc: '2.0', id, error: mapError(e) }));
      }
    } finally {
      await stream.return?.(undefined).catch(() => {});
      if (!res.writableEnded) res.end();
    }
  }

  // A remote agent's answer to a step handed to it (services/a2a/delegation-answer.ts): no bearer
  // token — the delegation's secret in X-A2A-Notification-Token is the proof — and no origin (a
  // server calls it). Rate-limited per delegation.
  async function handleCallback(req: IncomingMessage, res: ServerResponse, id: string) {
    if (req.method !== 'POST') return send(res, 405, { error: 'Callbacks are POSTed' }, { allow: 'POST' });
    if (!limiter.take(`a2a-callback:${id}`)) return send(res, 429, { error: 'Too many callbacks; retry shortly' }, { 'retry-after': String(limiter.retryAfterSeconds(`a2a-callback:${id}`)) });
    const body = await bodyOr413(req, res, (m) => ({ error: m }));
    if (body === null) return;
    const out = await receiveDelegationAnswer(deps, { id, token: header(req, 'x-a2a-notification-token'), body });
    if (out.status === 204) {
      res.writeHead(204);
      return res.end();
    }
    return send(res, out.status, { error: out.message });
  }

  return {
    owns: (p) => p === A2A_PATH || p === AGENT_CARD_PATH || p.startsWith(CALLBACK_PATH),
    async handle(req, res, url) {
      if (url.pathname === AGENT_CARD_PATH) await handleCard(req, res);
      else if (url.pathname.startsWith(CALLBACK_PATH)) await handleCallback(req, res, url.pathname.slice(CALLBACK_PATH.length));
      else await handleRpc(req, res);
    },
    close: () => push.close(),
  };
}
