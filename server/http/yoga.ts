// The GraphQL server: schema, per-request context (authentication, rate limit, loaders), error
// masking to stable codes, and the document limits (./limits.ts). Transports (HTTP, SSE, WS) live in ../http.
import { GraphQLError } from 'graphql';
import { createYoga, type GraphiQLOptions, type Plugin, type YogaInitialContext } from 'graphql-yoga';
import { checkCsrf, credentialOf } from './session.ts';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { arbitraryDocumentRefusal, documentIdOf, GRAPHIQL_HEADER, trustedDocuments, UNKNOWN_DOCUMENT } from './trusted-documents.ts';
import { checkCookieOrigin, corsOptionsFor, requestOrigin } from './origins.ts';
import { authenticateToken, type Viewer } from '../auth/viewer.ts';
import type { Deps } from '../services/deps.ts';
import { AppError, httpStatusOf, isAppError, type ErrorCode } from '../errors.ts';
import type { Context } from '../graphql/context.ts';
import { limitPlugins, mutationFieldsOf, parserCache } from '../graphql/limits.ts';
import { inputGuard, TOO_DEEP_MESSAGE } from '../graphql/input-guard.ts';
import { authorizeMutations } from '../graphql/authorize-mutations.ts';
import { createLoaders } from '../graphql/loaders.ts';
import { RateLimiter } from '../graphql/rate-limit.ts';
import { schema } from '../graphql/schema.ts';

/**
 * GraphiQL's HTML from @graphql-yoga/render-graphiql, rendered once per set of options. The
 * package (~9 MB of inlined assets) is loaded on the first visit, not at start.
 */
const graphiqlPages = new Map<string, Promise<string>>();
function offlineGraphiQL(opts?: GraphiQLOptions): Promise<string> {
  const key = JSON.stringify(opts ?? {});
  let page = graphiqlPages.get(key);
  if (!page) {
    page = import('@graphql-yoga/render-graphiql').then((m) => m.renderGraphiQL(opts));
    page.catch(() => graphiqlPages.delete(key));
    graphiqlPages.set(key, page);
  }
  return page;
}

/** Set on the initial context by the WebSocket transport, which authenticates at connection time. */
export type ServerContext = { viewer?: Viewer };

/** Errors raised before execution carry an HTTP status; errors inside resolvers never do. */
class RequestError extends AppError {}

function toGraphQLError(e: AppError, base?: GraphQLError): GraphQLError {
  return new GraphQLError(e.message, {
    nodes: base?.nodes,
    source: base?.source,
    positions: base?.positions,
    path: base?.path,
    extensions: {
      code: e.code,
      ...(e.details ?? {}),
      ...(e instanceof RequestError ? { http: { status: httpStatusOf[e.code], headers: retryAfterHeader(e) } } : {}),
    },
  });
}

/** A rate-limited request says when to come back (Retry-After, in seconds), as HTTP asks. */
function retryAfterHeader(e: AppError): Record<string, string> | undefined {
  const s = e.details?.retryAfterSeconds;
  return e.code === 'RATE_LIMITED' && typeof s === 'number' ? { 'retry-after': String(s) } : undefined;
}

const KNOWN_CODES = new Set<string>(Object.keys(httpStatusOf));

function codeForHttpStatus(status: number | undefined): ErrorCode {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  if (status !== undefined && status >= 500) return 'INTERNAL';
  return 'BAD_USER_INPUT';
}

/** Every error leaving the server has one of our codes; anything unexpected becomes INTERNAL. */
function maskError(deps: Deps) {
  return (error: unknown): Error => {
    const ge = error instanceof GraphQLError ? error : undefined;
    const original = ge?.originalError ?? error;
    if (isAppError(original)) return toGraphQLError(original, ge);
    // Errors with a path arose while executing: unless they are ours (AppError, above), they are bugs.
    if (ge && !ge.path?.length && (!ge.originalError || ge.originalError instanceof GraphQLError)) {
      // Parse, validation, variable-coercion and request errors: safe messages about the request.
      const inner = (ge.originalError as GraphQLError | undefined) ?? ge;
      let http = inner.extensions?.http as { status?: number; spec?: boolean } | undefined;
      const code = typeof inner.extensions?.code === 'string' && KNOWN_CODES.has(inner.extensions.code)
        ? inner.extensions.code
        : codeForHttpStatus(http?.status);
      // A request that is not well-formed GraphQL-over-HTTP (bad JSON, no query, wrong method) keeps
      // its 4xx status even for application/json clients; errors about a parsed document (syntax,
      // validation) have a location and follow the spec's 200-for-application/json rule.
      const aboutDocument = !!(ge.positions?.length || ge.nodes?.length);
      if (http?.spec && !aboutDocument && (http.status ?? 0) >= 400) http = { ...http, spec: false };
      return new GraphQLError(inner.message, {
        nodes: ge.nodes,
        source: ge.source,
        positions: ge.positions,
        path: ge.path,
        extensions: { code, ...(http ? { http } : {}) },
      });
    }
    // A stack overflow outside any field (no path) comes from reading the request itself — parsing,
    // validating or coercing something nested thousands of levels deep: the request's fault.
    if (original instanceof RangeError && /call stack/i.test(original.message) && !ge?.path?.length) {
      return new GraphQLError(TOO_DEEP_MESSAGE, { extensions: { code: 'BAD_USER_INPUT' } });
    }
    deps.log.error('unexpected error', {
      error: original instanceof Error ? original.message : String(original),
      stack: original instanceof Error ? original.stack : undefined,
    });
    return new GraphQLError('Unexpected error.', {
      nodes: ge?.nodes,
      path: ge?.path,
      extensions: { code: 'INTERNAL' },
    });
  };
}

/** Belt and braces: an error that reached the result without passing maskError still gets a code. */
const ensureCodes: Plugin = {
  onExecutionResult({ result, setResult }) {
    if (!result || !('errors' in result) || !result.errors?.length) return;
    let changed = false;
    const errors = result.errors.map((e) => {
      if (typeof e.extensions?.code === 'string' && KNOWN_CODES.has(e.extensions.code)) return e;
      changed = true;
      // Without a non-GraphQL cause it is an error about the request (e.g. validation); otherwise
      // it is ours and unexpected.
      const aboutRequest = !e.path?.length && (!e.originalError || e.originalError instanceof GraphQLError);
      return new GraphQLError(aboutRequest ? e.message : 'Unexpected error.', {
        nodes: e.nodes,
        path: e.path,
        extensions: { ...(aboutRequest ? e.extensions : {}), code: aboutRequest ? 'BAD_USER_INPUT' : 'INTERNAL' },
      });
    });
    if (changed) setResult({ ...result, errors });
  },
};

/** The masking of every transport, for errors the socket transport meets outside Yoga's pipeline. */
export function maskGraphQLError(deps: Deps): (error: unknown) => GraphQLError {
  const m = maskError(deps);
  return (error) => m(error) as GraphQLError;
}

export function createGraphQLServer(deps: Deps) {
  const limiter = new RateLimiter(deps.config.rateLimitPerMinute);
  const c = deps.config;
  const limits = limitPlugins({
    maxTokens: c.maxQueryTokens,
    maxDepth: c.maxQueryDepth,
    maxAliases: c.maxAliases,
    maxDirectives: c.maxDirectives,
    maxCost: c.maxQueryCost,
    maxMutationFields: c.maxMutationsPerRequest,
  });
  const rateLimited = (key: string, n: number) =>
    new RequestError('RATE_LIMITED', 'Too many requests for this token; slow down and retry shortly', {
      retryAfterSeconds: limiter.retryAfterSeconds(key, n),
    });
  // Each root mutation field is a write of its own: the context factory took one token for the
  // request, the other fields are charged here, before any of them runs. A result rather than a
  // throw, so every transport answers it as an ordinary GraphQL error (429 over HTTP).
  const chargeMutations: Plugin<Context> = {
    onExecute({ args, setResultAndStopExecution }) {
      const extra = mutationFieldsOf(args.document, args.operationName) - 1;
      if (extra <= 0) return;
      const key = (args.contextValue as Context).viewer.credentialId;
      if (!limiter.take(key, extra)) setResultAndStopExecution({ errors: [toGraphQLError(rateLimited(key, extra))] });
    },
  };
  // Without any credential the answer is 401 whatever the document: it is refused before parsing
  // and validation, so those cannot be run in bulk anonymously. (A credential is checked, against
  // the database, by the context factory, after the linear-time document limits.)
  const requireCredential: Plugin = {
    async onParams({ request, setResult }) {
      if (credentialOf(request.headers)) return;
      const e = await authenticateToken(deps.prisma, null).catch((err: unknown) => err);
      if (isAppError(e)) setResult({ errors: [toGraphQLError(new RequestError(e.code, e.message))] });
    },
  };

  // Trusted documents (trusted-documents.ts): an id is resolved from the manifest by Yoga's
  // persisted-operations plugin; a document of the request's own is let through here and judged by
  // the context factory, once the credential (cookie or token, and its workspace) is known.
  const ownDocuments = new WeakSet<Request>();
  const persisted = usePersistedOperations({
    extractPersistedOperationId: (params) => documentIdOf(params as { documentId?: unknown; extensions?: unknown }),
    getPersistedOperation: (id) => trustedDocuments().get(id) ?? null,
    allowArbitraryOperations: (request) => {
      ownDocuments.add(request);
      return true;
    },
    customErrors: {
      notFound: { message: UNKNOWN_DOCUMENT, extensions: { code: 'BAD_USER_INPUT', reason: 'UNKNOWN_DOCUMENT_ID' } },
      keyNotFound: { message: 'Send a document (query) or the id of a trusted document (documentId).', extensions: { code: 'BAD_USER_INPUT' } },
    },
  });

  return createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // Signed in on this browser, GraphiQL runs as you: the session cookie plus the CSRF header
    // cookie-authenticated requests need (or replace it with `Authorization: Bearer <token>`).
    graphiql: deps.config.graphiql
      ? { title: 'Atelier GraphQL', subscriptionsProtocol: 'WS', credentials: 'same-origin', headers: JSON.stringify({ 'x-atelier-csrf': '1', [GRAPHIQL_HEADER]: '1' }, null, 2) }
      : false,
    // GraphiQL's page with its scripts, styles and editor workers inlined, from the installed
    // package: it works with no internet (Yoga's default loads them from a public CDN).
    renderGraphiQL: offlineGraphiQL,
    logging: false,
    batching: false,
    // Credentialed CORS for the server's own origin and the allow-list only (http/origins.ts).
    cors: (request) => corsOptionsFor(request, deps.config.allowedOrigins ?? []),
    maskedErrors: { maskError: maskError(deps) },
    // Yoga's parser cache, keeping no document longer than any real one (limits.ts).
    parserAndValidationCache: parserCache(),
    plugins: [requireCredential, persisted, ...limits, chargeMutations, authorizeMutations, inputGuard, ensureCodes],
    context: async (initial: YogaInitialContext & ServerContext): Promise<Context> => {
      let viewer = initial.viewer;
      if (!viewer) {
        try {
          // A bearer token, else the web app's session cookie (which needs the CSRF header).
          const cred = credentialOf(initial.request.headers);
          checkCsrf(cred, initial.request.headers);
          checkCookieOrigin(cred, initial.request.headers, deps.config.allowedOrigins ?? []);
          viewer = await authenticateToken(deps.prisma, cred?.token ?? null);
          if (ownDocuments.has(initial.request)) {
            // GraphiQL (served only while ATELIER_GRAPHIQL is on) is where a signed-in person writes
            // documents of their own; it says so with its header.
            const fromGraphiQL = !!deps.config.graphiql && initial.request.headers.get(GRAPHIQL_HEADER) === '1';
            const refusal = await arbitraryDocumentRefusal(deps.prisma, cred, viewer.memberships.keys(), { fromGraphiQL });
            if (refusal) throw new AppError('FORBIDDEN', refusal);
          }
        } catch (e) {
          if (isAppError(e)) throw new RequestError(e.code, e.message);
          throw e;
        }
      }
      if (!limiter.take(viewer.credentialId)) throw rateLimited(viewer.credentialId, 1);
      return {
        deps,
        viewer,
        loaders: createLoaders(deps, viewer),
        publicUrl: deps.config.files?.publicUrl ?? requestOrigin(initial.request),
        signal: initial.viewer ? undefined : initial.request.signal,
      };
    },
  });
}

export type GraphQLServer = ReturnType<typeof createGraphQLServer>;
