import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { ChatOpenAI } from '@langchain/openai';
import { OfflineChatModel } from './offline-model.ts';
import type { ScriptedChatModel } from './scripted-model.ts';
import type { ModelInfo, ModelProvider, ModelRole } from './types.ts';

export type { ModelInfo, ModelProvider, ModelRole } from './types.ts';

export const DEFAULT_ROUTER_MODEL = 'gpt-4.1-mini';
export const DEFAULT_WORKER_MODEL = 'gpt-4.1';

export interface ModelProviderOptions {
  apiKey?: string;
  /** OpenAI-compatible base URL including the version prefix, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl?: string;
  routerModel?: string;
  workerModel?: string;
  /** Per-request timeout in ms (passed to the OpenAI client). */
  timeoutMs?: number;
  /** LangChain-level retries on retryable errors (default 2). */
  maxRetries?: number;
  /** The egress gate's fetch for the deployment (the configured base URL is its destination); unset: the global fetch. */
  fetch?: (url: string | URL | Request, init?: RequestInit) => Promise<Response>;
}

function present(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

/** Base URL without credentials / query, safe for logs and UIs. */
function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid base URL)';
  }
}

/**
 * OpenAI (or any OpenAI-compatible endpoint) when an API key or base URL is configured;
 * otherwise the deterministic OfflineChatModel. One model instance per role, created lazily.
 */
export function createModelProvider(opts: ModelProviderOptions = {}): ModelProvider {
  const apiKey = present(opts.apiKey);
  const baseUrl = present(opts.baseUrl);
  const routerModel = present(opts.routerModel) ?? DEFAULT_ROUTER_MODEL;
  const workerModel = present(opts.workerModel) ?? DEFAULT_WORKER_MODEL;

  if (apiKey === undefined && baseUrl === undefined) {
    const offline = new OfflineChatModel();
    const info: ModelInfo = {
      provider: 'offline',
      routerModel: 'atelier-offline',
      workerModel: 'atelier-offline',
      offline: true,
      description:
        'No model is configured (set OPENAI_API_KEY or OPENAI_BASE_URL); using the deterministic offline model, which only records notes and does not reason.',
    };
    return { info, chat: () => offline };
  }

  const cache = new Map<ModelRole, BaseChatModel>();
  const info: ModelInfo = {
    provider: 'openai',
    routerModel,
    workerModel,
    offline: false,
    description: `OpenAI-compatible chat models (router: ${routerModel}, worker: ${workerModel}) at ${
      baseUrl ? displayUrl(baseUrl) : 'api.openai.com'
    }`,
  };
  return {
    info,
    chat(role: ModelRole): BaseChatModel {
      let model = cache.get(role);
      if (!model) {
        model = new ChatOpenAI({
          model: role === 'router' ? routerModel : workerModel,
          apiKey: apiKey ?? 'not-needed',
          configuration: { ...(baseUrl ? { baseURL: baseUrl } : {}), ...(opts.fetch ? { fetch: opts.fetch } : {}) },
          maxRetries: opts.maxRetries ?? 2,
          ...(opts.timeoutMs !== undefined ? { timeout: opts.timeoutMs } : {}),
        });
        cache.set(role, model);
      }
      return model;
    },
  };
}

/** Provider backed by a single ScriptedChatModel for both roles (tests). */
export function scriptedProvider(model: ScriptedChatModel): ModelProvider {
  return {
    info: {
      provider: 'scripted',
      routerModel: 'atelier-scripted',
      workerModel: 'atelier-scripted',
      offline: false,
      description: 'Scripted test model',
    },
    chat: () => model,
  };
}
