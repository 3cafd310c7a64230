// What every resolver receives. Built per request (HTTP, SSE) or per operation (graphql-ws).
import type { Viewer } from '../auth/viewer.ts';
import type { Deps } from '../services/deps.ts';
import type { Loaders } from './loaders.ts';

export type Context = {
  deps: Deps;
  viewer: Viewer;
  loaders: Loaders;
  /** Base of the absolute URLs in this request's answers (ATELIER_PUBLIC_URL, else the request's origin). */
  publicUrl?: string;
  /** Aborts when the HTTP client goes away (ends SSE subscriptions promptly). */
  signal?: AbortSignal;
};
