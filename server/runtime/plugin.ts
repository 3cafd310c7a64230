// Runtime extensions: a module named by ATELIER_RUNTIME_PLUGIN may add tools and replace the model
// (used for custom integrations, demos and process-level tests).
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { ToolDef } from './tools/types.ts';

export type RuntimePlugin = { tools?: ToolDef[]; model?: () => BaseChatModel };

export async function loadRuntimePlugin(path: string | undefined): Promise<RuntimePlugin> {
  if (!path) return {};
  const url = pathToFileURL(resolve(path)).href;
  const mod = (await import(url).catch(async (e: { code?: string }) => {
    // A TypeScript plugin loaded by the compiled server: register tsx's loader for it, then retry.
    if (e?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw e;
    const { register } = await import('tsx/esm/api');
    register();
    return import(url);
  })) as { default?: RuntimePlugin };
  return mod.default ?? {};
}
