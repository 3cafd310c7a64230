// Runtime extensions: a module named by ATELIER_RUNTIME_PLUGIN may add tools and replace the model
// (used for custom integrations, demos and process-level tests).
// A plugin's tool declares the right it needs (ToolDef.scope, e.g. `objects:write`): the agent policy
// refuses every call of a tool without one (domain/agent-policy.ts, rule no-scope-declared).
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { ToolDef } from './tools/types.ts';

export type RuntimePlugin = { tools?: ToolDef[]; model?: () => BaseChatModel };

export async function loadRuntimePlugin(path: string | undefined): Promise<RuntimePlugin> {
  if (!path) return {};
  const url = pathToFileURL(resolve(path)).href;
  // A TypeScript plugin loaded by the compiled server needs tsx's loader, registered before the
  // import (a failed import of a URL is cached: registering afterwards would not help) and only
  // when no tsx loader runs yet (`--import tsx`, or start.mjs's fallback, which marks it).
  const underTsx = process.execArgv.some((a) => a.includes('tsx')) || (globalThis as { __atelierTsx?: boolean }).__atelierTsx === true;
  if (/\.[mc]?tsx?$/.test(path) && !underTsx) {
    const { register } = await import('tsx/esm/api');
    register();
  }
  const mod = (await import(url)) as { default?: RuntimePlugin };
  return mod.default ?? {};
}
