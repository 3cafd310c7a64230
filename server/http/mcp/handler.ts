// /mcp: Atelier as an MCP server over Streamable HTTP, on the API's port, plus its protected-resource
// metadata. Every HTTP request is authenticated on its own with a bearer token, like GraphQL (the
// session cookie is not accepted here: an MCP client is a program with a token); no token or a bad
// one is 401 with a challenge naming the metadata document. A session belongs to the token that
// opened it: another token presenting its id finds no session (404), so a leaked session id is
// worth nothing without its token. Requests from a browser page of another origin are refused (the
// transport spec's DNS-rebinding rule), bearer token or not: trusted are the server's own origin and
// ATELIER_ALLOWED_ORIGINS, as origins.ts decides for the session cookie on /graphql.
//
// Sessions live in this process's memory and hold no state of their own that matters: tasks,
// events and results are read from the database on each call. A client whose session is gone (idle,
// a restart, another API process) gets 404, starts a new session and carries on with the same ids.
import { header, knownHostCheck, originOf as originOfRequest } from '../request-parts.ts';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { parseBearer } from '../../auth/tokens.ts';
import { authenticateToken, type Viewer } from '../../auth/viewer.ts';
import { isAppError } from '../../errors.ts';
import type { Deps } from '../../services/deps.ts';
import { RateLimiter } from '../../graphql/rate-limit.ts';
import { isTrustedOrigin } from '../origins.ts';
import { SessionEventStore } from './event-store.ts';
import { createMcpServer } from './mcp-server.ts';
import { challenge, docsPage, DOCS_PATH, METADATA_PATH, protectedResourceMetadata } from './metadata.ts';
import type { McpCall } from './task-view.ts';

/** A session nobody used for this long (and with no request open) is closed (ATELIER_MCP_SESSION_IDLE_MS). */
const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

type Session = {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** The token that opened it. */
  credentialId: string;
  latest: McpCall;
  lastSeen: number;
  /** Requests open on this session, plus tasks/result waits still running (their client may be away). */
  open: number;
};

export type McpHttp = {
  /** Whether this path is served here (/mcp, /mcp/docs, the metadata documents). */
  owns(pathname: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
  close(): Promise<void>;
};


function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

const rpcError = (code: number, message: string, data?: unknown) => ({ jsonrpc: '2.0', error: { code, message, ...(data ? { data } : {}) }, id: null });

export function createMcpHttp(deps: Deps): McpHttp {
  const sessions = new Map<string, Session>();
  // The same budget per credential as GraphQL's (ATELIER_RATE_LIMIT_PER_MINUTE), counted apart.
  const limiter = new RateLimiter(deps.config.rateLimitPerMinute);
  const allowed = deps.config.allowedOrigins ?? [];

  const originOf = (req: IncomingMessage): string => originOfRequest(deps.config, req);
  const knownHost = knownHostCheck(deps.config);

  const closeSession = async (id: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    await s.server.close().catch(() => {});
  };

  // A session counts as used while any of its requests is open (a tasks/result wait, a GET stream),
  // so only a session nobody holds is swept. The sweep runs a few times per idle period, so a session
  // closes at most about half an idle period late.
  const idleMs = deps.config.mcpSessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, s] of sessions) {
      if (s.open === 0 && now - s.lastSeen > idleMs) {
        // The id alone opens nothing (a session answers only the token that opened it).
        deps.log.info('mcp session closed after idle time', { sessionId: id, idleMs: now - s.lastSeen });
        void closeSession(id);
      }
    }
  }, Math.min(60_000, Math.max(50, Math.floor(idleMs / 2))));
  sweep.unref();

  function newSession(viewer: Viewer, call: McpCall): Session {
    const session: Session = { credentialId: viewer.credentialId, latest: call, lastSeen: Date.now(), open: 0 } as Session;
    session.server = createMcpServer({
      call: () => session.latest,
      // A wait whose client dropped its stream still holds the session: the client resumes with
      // Last-Event-ID; the idle period counts from when the wait ends.
      hold: () => {
        session.open++;
        let released = false;
        return () => {
          if (released) return;
          released = true;
          session.open--;
          session.lastSeen = Date.now();
        };
      },
    });
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new SessionEventStore(),
      maxRequestBodySize: deps.config.maxBodyBytes,
      onsessioninitialized: (id) => {
        sessions.set(id, session);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    return session;
  }

  async function handleMcp(req: IncomingMessage, res: ServerResponse) {
    // A browser page of another origin never reaches the server (DNS rebinding, cross-site pages).
    const origin = header(req, 'origin');
    if (origin !== null && (!isTrustedOrigin(origin, header(req, 'host'), allowed) || !knownHost(origin))) {
      return send(res, 403, rpcError(-32000, 'Requests from this origin are not accepted; MCP clients send no Origin, or the server’s own'));
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, origin ? { 'access-control-allow-origin': origin, 'access-control-allow-methods': 'GET, POST, DELETE', 'access-control-allow-headers': 'authorization, content-type, mcp-session-id, mcp-protocol-version, last-event-id', 'access-control-expose-headers': 'mcp-session-id, www-authenticate' } : {});
      res.end();
      return;
    }
    const token = parseBearer(header(req, 'authorization'));
    let viewer: Viewer;
    try {
      viewer = await authenticateToken(deps.prisma, token);
    } catch (e) {
      if (!isAppError(e)) throw e;
      return send(res, 401, rpcError(-32001, e.message, { code: e.code }), { 'www-authenticate': challenge(originOf(req), token !== null) });
    }
    if (!limiter.take(viewer.credentialId)) {
      const seconds = limiter.retryAfterSeconds(viewer.credentialId);
      return send(res, 429, rpcError(-32000, 'Too many requests for this token; slow down and retry shortly', { code: 'RATE_LIMITED', retryAfterSeconds: seconds }), { 'retry-after': String(seconds) });
    }
    const call: McpCall = { deps, viewer, publicUrl: originOf(req) };
    const sessionId = header(req, 'mcp-session-id');
    let session: Session;
    if (sessionId !== null) {
      const found = sessions.get(sessionId);
      if (!found || found.credentialId !== viewer.credentialId) {
        return send(res, 404, rpcError(-32001, 'Session not found; start a new session (initialize)'));
      }
      session = found;
    } else {
      // No session yet: only an initialize request is accepted (the transport answers anything else 400).
      session = newSession(viewer, call);
      await session.server.connect(session.transport);
    }
    session.latest = call;
    session.lastSeen = Date.now();
    session.open++;
    res.once('close', () => {
      session.open--;
      session.lastSeen = Date.now();
      // A transport that never became a session (not an initialize request) is dropped.
      if (!session.transport.sessionId) void session.server.close().catch(() => {});
    });
    // The viewer of this very request reaches the tool handlers as authInfo.
    const authed = Object.assign(req, {
      auth: { token: token!, clientId: viewer.credentialId, scopes: [...viewer.scopes].map((s) => s.toLowerCase()), extra: { call } },
    });
    await session.transport.handleRequest(authed, res);
  }

  return {
    owns: (p) => p === '/mcp' || p === DOCS_PATH || p === METADATA_PATH || p === '/.well-known/oauth-protected-resource',
    async handle(req, res, url) {
      if (url.pathname === '/mcp') return handleMcp(req, res);
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { error: 'Method not allowed' }, { allow: 'GET' });
      if (url.pathname === DOCS_PATH) {
        const page = docsPage(originOf(req));
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(page)) });
        res.end(req.method === 'HEAD' ? undefined : page);
        return;
      }
      // Public metadata: any origin may read it (it names no secret).
      return send(res, 200, protectedResourceMetadata(originOf(req)), { 'access-control-allow-origin': '*', 'cache-control': 'max-age=300' });
    },
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.keys()].map(closeSession));
    },
  };
}
