// HTTP + WebSocket transport on one port. POST/GET /graphql (GraphQL over HTTP, and SSE when the
// client accepts text/event-stream) go to Yoga; WebSocket upgrades on /graphql speak graphql-ws.
// Request bodies are read here with a hard size limit, so an oversized body is refused with 413
// before any parsing.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { GraphQLError, type ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { parseBearer } from '../auth/tokens.ts';
import { handleFile } from './files.ts';
import { handleProviderHook } from './hooks.ts';
import { createMcpHttp } from './mcp/handler.ts';
import { createA2aHttp } from './a2a/handler.ts';
import { createJwksHttp } from './jwks.ts';
import { credentialOf, handleAuth, trustedSocketOrigin } from './session.ts';
import type { WebHandler } from './web.ts';
import { authenticateToken, type Viewer } from '../auth/viewer.ts';
import type { Deps } from '../services/deps.ts';
import { isAppError } from '../errors.ts';
import { ping } from '../store/health.ts';
import { maskGraphQLError, type GraphQLServer } from './yoga.ts';
import { BodyTooLarge, readBody } from './request-parts.ts';
import { arbitraryDocumentRefusal, documentIdOf, trustedDocuments, UNKNOWN_DOCUMENT } from './trusted-documents.ts';

export type RunningServer = { url: string; port: number; close(): Promise<void> };

function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const forwardedProto = (v: string | string[] | undefined): Record<string, string> => {
  const proto = Array.isArray(v) ? v[0] : v;
  return proto ? { 'x-forwarded-proto': proto } : {};
};

const LANDING = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Atelier</title></head>
<body style="font-family:system-ui;max-width:40rem;margin:4rem auto;line-height:1.5">
<h1>Atelier</h1><p>The GraphQL API is at <a href="/graphql">/graphql</a> (GraphiQL in a browser).
Send <code>Authorization: Bearer &lt;token&gt;</code>; <code>npm run atelier -- token</code> prints a new token.</p></body></html>`;

export async function startHttpServer(
  deps: Deps,
  yoga: GraphQLServer,
  opts: { port: number; host: string; web?: WebHandler },
): Promise<RunningServer> {
  const mask = maskGraphQLError(deps);
  // /mcp (Atelier as an MCP server) and its protected-resource metadata: mcp/handler.ts.
  const mcp = createMcpHttp(deps);
  // /a2a (Atelier as an A2A agent) and its signed agent card: a2a/handler.ts.
  const a2a = createA2aHttp(deps);
  // /.well-known/jwks.json and /.well-known/jwks/<workspace>.json: the agents' public keys (jwks.ts).
  const jwks = createJwksHttp(deps);
  /** A GraphQL error as sent over a socket: no HTTP status (there is none), the same code. */
  const socketError = (e: GraphQLError): GraphQLError => {
    const { http: _http, ...extensions } = e.extensions ?? {};
    return new GraphQLError(e.message, { nodes: e.nodes, positions: e.positions, path: e.path, extensions });
  };
  const server = createServer((req, res) => {
    void handle(req, res).catch((e) => {
      // A client that went away mid-response (a closed tab, a dropped socket) is not a server fault.
      const aborted = (e as Error)?.name === 'AbortError' || /operation was aborted|ECONNRESET|socket hang up/i.test(String((e as Error)?.message));
      (aborted ? deps.log.debug : deps.log.error)('http handler failed', { error: (e as Error).message });
      if (!res.headersSent) sendJson(res, 500, { errors: [{ message: 'Unexpected error.', extensions: { code: 'INTERNAL' } }] });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    // A request target or Host header that is no URL, or a path that is not valid percent-encoding,
    // is the client's mistake: 400, not a handler failure.
    let url: URL;
    try {
      url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    } catch {
      return sendJson(res, 400, { error: 'The request URL is malformed' });
    }
    // Liveness: the process answers. Readiness: it can serve (its database answers within a second).
    if (url.pathname === '/health' || url.pathname === '/health/live') return sendJson(res, 200, { ok: true });
    if (url.pathname === '/health/ready') {
      const ready = await Promise.race([
        ping(deps.prisma).then(() => true, () => false),
        new Promise<boolean>((r) => setTimeout(() => r(false), 1000).unref()),
      ]);
      return sendJson(res, ready ? 200 : 503, { ok: ready, ...(ready ? {} : { reason: 'the database does not answer' }) });
    }
    // Signed provider callbacks (verified by the provider's client, see hooks.ts).
    if (url.pathname.startsWith('/hooks/generation/')) return handleProviderHook(deps, req, res, url.pathname.slice('/hooks/generation/'.length));
    if (url.pathname.startsWith('/files/')) {
      let name: string;
      try {
        name = decodeURIComponent(url.pathname.slice('/files/'.length));
      } catch {
        return sendJson(res, 400, { error: 'The file name is not valid percent-encoding' });
      }
      return handleFile(deps, req, res, name, url.searchParams);
    }
    if (mcp.owns(url.pathname)) return mcp.handle(req, res, url);
    if (a2a.owns(url.pathname)) return a2a.handle(req, res, url);
    if (jwks.owns(url.pathname)) return jwks.handle(req, res, url);
    const isAuth = url.pathname === '/auth/session' || url.pathname === '/auth/signout';
    if (url.pathname !== '/graphql' && !isAuth) {
      if (opts.web) return opts.web.handle(req, res);
      if (url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(LANDING);
      }
      return sendJson(res, 404, { error: 'Not found' });
    }
    let body: Buffer | undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      try {
        body = await readBody(req, deps.config.maxBodyBytes);
      } catch (e) {
        if (e instanceof BodyTooLarge) {
          res.setHeader('connection', 'close');
          return sendJson(res, 413, {
            errors: [
              {
                message: `Request body exceeds the limit of ${deps.config.maxBodyBytes} bytes`,
                extensions: { code: 'BAD_USER_INPUT' },
              },
            ],
          });
        }
        throw e;
      }
    }
    if (isAuth) return handleAuth(deps, req, res, url.pathname, body);
    const ac = new AbortController();
    res.on('close', () => ac.abort());
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined) continue;
      for (const x of Array.isArray(v) ? v : [v]) headers.append(k, x);
    }
    const request = new Request(url, {
      method: req.method,
      headers,
      body: body && body.length > 0 ? new Uint8Array(body) : body ? '' : undefined,
      signal: ac.signal,
    });
    const response = await yoga.fetch(request, {});
    const outHeaders: Record<string, string | string[]> = {};
    response.headers.forEach((v, k) => {
      outHeaders[k] = v;
    });
    res.writeHead(response.status, outHeaders);
    if (!response.body) return res.end();
    // Streams (SSE) are written as they come, with backpressure; the client going away aborts the
    // request, which ends the subscription's iterator.
    const reader = response.body.getReader();
    res.on('close', () => void reader.cancel().catch(() => {}));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await once(res, 'drain');
    }
    res.end();
  }

  // Upgrades: /graphql speaks graphql-ws; anything else goes to the web app (Next's dev HMR) or is refused.
  const wss = new WebSocketServer({ noServer: true, maxPayload: deps.config.maxBodyBytes });
  server.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/graphql') wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    else if (opts.web?.upgrade) opts.web.upgrade(req, socket, head);
    else socket.destroy();
  });
  type Extra = { viewer?: Viewer; token?: string | null };
  // The credential of each open socket, re-checked every wsReauthMs: a revoked or expired token or
  // session closes its sockets (4401), ending their subscriptions, within one interval.
  const credentials = new Map<object, { token: string | null; via: 'bearer' | 'cookie'; close(reason: string): void }>();
  const closeUnauthenticated = (socket: { close(code: number, reason: string): void }, message: string) =>
    // A close reason is at most 123 bytes; the code is what clients act on.
    socket.close(4401, `UNAUTHENTICATED: ${message}`.slice(0, 120));
  const reauth = setInterval(() => {
    void (async () => {
      for (const [key, c] of [...credentials]) {
        try {
          await authenticateToken(deps.prisma, c.token);
        } catch (e) {
          if (!isAppError(e)) continue; // a database hiccup is not a revocation
          credentials.delete(key);
          c.close('the credential was revoked or has expired');
        }
      }
    })().catch((e) => deps.log.warn('websocket credential re-check failed', { error: (e as Error).message }));
  }, deps.config.wsReauthMs ?? 5000);
  reauth.unref();

  const wsDisposable = useServer<Record<string, unknown> | undefined, Extra>(
    {
      onConnect: async (ctx) => {
        const p = ctx.connectionParams ?? {};
        const fromParams =
          typeof p.authorization === 'string'
            ? parseBearer(p.authorization)
            : typeof p.Authorization === 'string'
              ? parseBearer(p.Authorization)
              : typeof p.token === 'string'
                ? p.token
                : null;
        // Params, then the Authorization header, then the session cookie (only from a trusted origin).
        const header = credentialOf(ctx.extra.request.headers);
        const token =
          fromParams ??
          (header?.via === 'bearer' || (header?.via === 'cookie' && trustedSocketOrigin(ctx.extra.request, deps.config.allowedOrigins ?? []))
            ? header.token
            : null);
        try {
          await authenticateToken(deps.prisma, token);
          // The web app's cookie runs trusted documents only (trusted-documents.ts); a token from the
          // params or the Authorization header may bring documents of its own.
          const via = fromParams || header?.via === 'bearer' ? 'bearer' : 'cookie';
          credentials.set(ctx.extra, { token, via, close: (reason) => closeUnauthenticated(ctx.extra.socket, reason) });
          return true;
        } catch (e) {
          if (!isAppError(e)) throw e;
          // 4401 with the code in the reason: graphql-ws clients treat it as final (no retry loop).
          closeUnauthenticated(ctx.extra.socket, e.message);
          return false;
        }
      },
      onClose: (ctx) => {
        credentials.delete(ctx.extra);
      },
      onSubscribe: async (ctx, _id, payload) => {
        // Re-authenticate per operation: a revoked credential closes the socket like the re-check.
        const cred = credentials.get(ctx.extra);
        let viewer: Viewer;
        try {
          viewer = await authenticateToken(deps.prisma, cred?.token ?? null);
        } catch (e) {
          if (!isAppError(e)) throw e;
          credentials.delete(ctx.extra);
          closeUnauthenticated(ctx.extra.socket, e.message);
          return [new GraphQLError(e.message, { extensions: { code: e.code } })];
        }
        // The same envelope as HTTP (limits, masking, rate limit). The request is a POST: over a
        // socket every operation type is allowed, mutations included.
        const enveloped = yoga.getEnveloped({
          viewer,
          // The upgrade's Host and X-Forwarded-Proto: absolute URLs in answers start with its origin.
          request: new Request(`http://${ctx.extra.request.headers.host ?? 'localhost'}/graphql`, {
            method: 'POST',
            headers: forwardedProto(ctx.extra.request.headers['x-forwarded-proto']),
          }),
          params: payload,
        } as never);
        // Every error goes through the HTTP transport's masking, so a bad document gets the same
        // extensions.code (and sentence) on HTTP, SSE and WebSocket.
        const fail = (errors: readonly unknown[]) => errors.map((e) => socketError(mask(e)));
        // A trusted document's id runs the document it names, whatever text came with it; a
        // document of the subscriber's own runs only where the credential may send those.
        const documentId = documentIdOf(payload as { documentId?: unknown; extensions?: unknown });
        let query = payload.query;
        if (documentId) {
          const trusted = trustedDocuments().get(documentId);
          if (!trusted) return [new GraphQLError(UNKNOWN_DOCUMENT, { extensions: { code: 'BAD_USER_INPUT', reason: 'UNKNOWN_DOCUMENT_ID' } })];
          query = trusted;
        } else {
          const refusal = await arbitraryDocumentRefusal(deps.prisma, cred ? { token: cred.token ?? '', via: cred.via } : null, viewer.memberships.keys());
          if (refusal) return [new GraphQLError(refusal, { extensions: { code: 'FORBIDDEN' } })];
        }
        let document;
        try {
          document = enveloped.parse(query);
        } catch (e) {
          return fail([e]);
        }
        let errors: readonly GraphQLError[];
        try {
          errors = enveloped.validate(enveloped.schema, document);
        } catch (e) {
          return fail([e]);
        }
        if (errors.length > 0) return fail(errors);
        let contextValue;
        try {
          contextValue = await enveloped.contextFactory();
        } catch (e) {
          // e.g. RATE_LIMITED: this operation fails, the socket and its other subscriptions stay.
          return fail([e]);
        }
        return {
          schema: enveloped.schema,
          document,
          contextValue,
          variableValues: payload.variables,
          operationName: payload.operationName,
          rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
        } as ExecutionArgs;
      },
      execute: (args: ExecutionArgs) => (args.rootValue as { execute: (a: ExecutionArgs) => never }).execute(args),
      subscribe: (args: ExecutionArgs) => (args.rootValue as { subscribe: (a: ExecutionArgs) => never }).subscribe(args),
    },
    wss,
  );

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: async () => {
      clearInterval(reauth);
      await mcp.close();
      await a2a.close();
      await wsDisposable.dispose();
      await opts.web?.close().catch(() => {});
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
