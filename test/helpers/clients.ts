// Real clients: HTTP (fetch), graphql-ws over a real WebSocket, graphql-sse over real HTTP.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type ExecutionResult } from 'graphql';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { toGlobalId } from './ids.ts';

export type GqlError = { message: string; extensions?: { code?: string; [k: string]: unknown }; path?: unknown };
export type GqlResult<T> = { status: number; data?: T | null; errors?: GqlError[]; contentType: string | null };

export async function gql<TData, TVars extends Record<string, unknown>>(
  url: string,
  token: string | null,
  doc: TypedDocumentNode<TData, TVars>,
  variables?: TVars,
  init: { accept?: string } = {},
): Promise<GqlResult<TData>> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: init.accept ?? 'application/graphql-response+json, application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query: print(doc), variables }),
  });
  const body = (await res.json()) as { data?: TData; errors?: GqlError[] };
  return { status: res.status, data: body.data, errors: body.errors, contentType: res.headers.get('content-type') };
}

/** Like gql, but fails the test on any error and returns data. */
export async function gqlOk<TData, TVars extends Record<string, unknown>>(
  url: string,
  token: string,
  doc: TypedDocumentNode<TData, TVars>,
  variables?: TVars,
): Promise<TData> {
  const r = await gql(url, token, doc, variables);
  if (r.errors?.length || !r.data) throw new Error(`GraphQL errors: ${JSON.stringify(r.errors)} (status ${r.status})`);
  return r.data;
}

export function wsClient(url: string, token: string | null, opts: { lazy?: boolean; retryAttempts?: number } = {}): WsClient {
  return createWsClient({
    url: url.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    lazy: opts.lazy ?? true,
    retryAttempts: opts.retryAttempts ?? 0,
  });
}

export function sseClient(url: string, token: string | null) {
  return createSseClient({
    url: `${url}/graphql`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
  });
}

/**
 * Collects subscription results into an array; `until` resolves once a predicate over the collected
 * items holds (no sleeps in tests: wait on conditions).
 */
export class Collector<T> {
  readonly items: T[] = [];
  readonly errors: unknown[] = [];
  completed = false;
  private waiters: { pred: () => boolean; resolve: () => void; reject: (e: Error) => void }[] = [];

  push(item: T) {
    this.items.push(item);
    this.check();
  }
  fail(e: unknown) {
    this.errors.push(e);
    this.check();
  }
  complete() {
    this.completed = true;
    this.check();
  }
  private check() {
    this.waiters = this.waiters.filter((w) => {
      if (w.pred()) {
        w.resolve();
        return false;
      }
      return true;
    });
  }
  until(pred: (items: T[]) => boolean, timeoutMs = 20_000, what = 'condition'): Promise<void> {
    if (pred(this.items)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(new Error(`timed out waiting for ${what}; have ${this.items.length} items, errors ${JSON.stringify(this.errors)}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push({ pred: () => pred(this.items), resolve: done, reject });
    });
  }
  untilDone(timeoutMs = 20_000): Promise<void> {
    return this.until(() => this.completed || this.errors.length > 0, timeoutMs, 'completion or error');
  }
}

type Sink<T> = { next(v: ExecutionResult<T>): void; error(e: unknown): void; complete(): void };
type Subscribable = {
  subscribe<T>(payload: { query: string; variables?: Record<string, unknown> }, sink: Sink<T>): () => void;
};

/** Subscribes with a graphql-ws or graphql-sse client; result items are the `data` payloads. */
export function collect<TData, TVars extends Record<string, unknown>>(
  client: Subscribable,
  doc: TypedDocumentNode<TData, TVars>,
  variables: TVars,
): { collector: Collector<TData>; stop: () => void } {
  const collector = new Collector<TData>();
  const stop = client.subscribe<TData>(
    { query: print(doc), variables },
    {
      next: (r) => {
        if (r.errors?.length) collector.fail(r.errors);
        else if (r.data) collector.push(r.data as TData);
      },
      error: (e) => collector.fail(e),
      complete: () => collector.complete(),
    },
  );
  return { collector, stop };
}

export { toGlobalId };
