// GraphQL over HTTP from the browser: same origin, the session cookie, and the CSRF header the
// server requires for cookie-authenticated requests. Errors become sentences, never raw JSON.
import type { TypedDocumentString } from '../gql/graphql';

export type ErrorCode = 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'BAD_USER_INPUT' | 'CONFLICT' | 'RATE_LIMITED' | 'INTERNAL' | 'NETWORK' | 'UNAVAILABLE';

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const friendly: Partial<Record<ErrorCode, string>> = {
  UNAUTHENTICATED: 'Your session has ended. Please sign in again.',
  RATE_LIMITED: 'Too many requests right now. Please wait a moment and try again.',
  INTERNAL: 'Something went wrong on our side. Please try again.',
  NETWORK: 'Atelier cannot be reached. Check your connection; we will keep trying.',
};

/** A human sentence for any error thrown by `request`. */
export function describeError(e: unknown): string {
  if (e instanceof ApiError) return friendly[e.code] && e.code !== 'FORBIDDEN' && e.code !== 'CONFLICT' && e.code !== 'BAD_USER_INPUT' ? friendly[e.code]! : e.message;
  return 'Something went wrong. Please try again.';
}

/**
 * How the web app sends an operation: by the id codegen gave it (web/gql/persisted-documents.json),
 * which the server runs for the web app's session; the text only for a document without one.
 */
export function trustedDocument(doc: unknown): { documentId: string } | { query: string } {
  const hash = (doc as { __meta__?: { hash?: unknown } } | null)?.__meta__?.hash;
  return typeof hash === 'string' ? { documentId: hash } : { query: String(doc) };
}

type GqlResponse<T> = { data?: T | null; errors?: { message: string; extensions?: { code?: string; [k: string]: unknown } }[] };

export async function request<TResult, TVars>(
  doc: TypedDocumentString<TResult, TVars> | string,
  variables?: TVars,
  opts: { signal?: AbortSignal } = {},
): Promise<TResult> {
  let res: Response;
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', 'x-atelier-csrf': '1' },
      // A trusted document goes by its id (the server holds the text); see trustedDocument().
      body: JSON.stringify({ ...trustedDocument(doc), variables: variables ?? {} }),
      signal: opts.signal,
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError('NETWORK', friendly.NETWORK!);
  }
  let body: GqlResponse<TResult>;
  try {
    body = (await res.json()) as GqlResponse<TResult>;
  } catch {
    throw new ApiError(res.status >= 500 ? 'INTERNAL' : 'NETWORK', friendly.INTERNAL!);
  }
  const first = body.errors?.[0];
  if (first) {
    const code = (first.extensions?.code as ErrorCode | undefined) ?? 'INTERNAL';
    if (code === 'UNAUTHENTICATED' && typeof window !== 'undefined' && !location.pathname.startsWith('/signin')) {
      location.assign(`/signin?next=${encodeURIComponent(location.pathname + location.search)}`);
    }
    // Asking for a field this server does not have yet (APIs merged in parallel).
    if (code === 'BAD_USER_INPUT' && /Cannot query field|Unknown type|Unknown argument/.test(first.message)) {
      throw new ApiError('UNAVAILABLE', 'This part of Atelier is not available on this server yet.', first.extensions ?? {});
    }
    throw new ApiError(code, first.message, first.extensions ?? {});
  }
  if (!body.data) throw new ApiError('INTERNAL', friendly.INTERNAL!);
  return body.data;
}

export const newKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

export const usd = (cents: number | null | undefined) => (cents == null ? '—' : `$${(cents / 100).toFixed(2)}`);
