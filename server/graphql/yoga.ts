// The GraphQL server: schema, per-request context (authentication, rate limit, loaders), error
// masking to stable codes, and the depth/cost limits. Transports (HTTP, SSE, WS) live in ../http.
import { GraphQLError } from 'graphql';
import { createYoga, type Plugin, type YogaInitialContext } from 'graphql-yoga';
import { checkCsrf, credentialOf } from '../http/session.ts';
import { authenticateToken, type Viewer } from '../auth/viewer.ts';
import type { Deps } from '../deps.ts';
import { AppError, httpStatusOf, isAppError, type ErrorCode } from '../errors.ts';
import type { Context } from './context.ts';
import { limitsRule } from './limits.ts';
import { createLoaders } from './loaders.ts';
import { RateLimiter } from './rate-limit.ts';
import { schema } from './schema.ts';

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
      ...(e instanceof RequestError ? { http: { status: httpStatusOf[e.code] } } : {}),
    },
  });
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

export function createGraphQLServer(deps: Deps) {
  const limiter = new RateLimiter(deps.config.rateLimitPerMinute);
  const limits: Plugin = {
    onValidate({ addValidationRule }) {
      addValidationRule(limitsRule(deps.config.maxQueryDepth, deps.config.maxQueryCost));
    },
  };

  return createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: deps.config.graphiql
      ? { title: 'Atelier GraphQL', subscriptionsProtocol: 'WS', headers: JSON.stringify({ Authorization: 'Bearer <token>' }) }
      : false,
    logging: false,
    batching: false,
    maskedErrors: { maskError: maskError(deps) },
    plugins: [limits, ensureCodes],
    context: async (initial: YogaInitialContext & ServerContext): Promise<Context> => {
      let viewer = initial.viewer;
      if (!viewer) {
        try {
          // A bearer token, else the web app's session cookie (which needs the CSRF header).
          const cred = credentialOf(initial.request.headers);
          checkCsrf(cred, initial.request.headers);
          viewer = await authenticateToken(deps.prisma, cred?.token ?? null);
        } catch (e) {
          if (isAppError(e)) throw new RequestError(e.code, e.message);
          throw e;
        }
      }
      if (!limiter.take(viewer.credentialId)) {
        throw new RequestError('RATE_LIMITED', 'Too many requests for this token; slow down and retry shortly');
      }
      return { deps, viewer, loaders: createLoaders(deps, viewer), signal: initial.viewer ? undefined : initial.request.signal };
    },
  });
}

export type GraphQLServer = ReturnType<typeof createGraphQLServer>;
