// Runtime extensions: a module named by ATELIER_RUNTIME_PLUGIN may add tools and replace the model
// (used for custom integrations, demos and process-level tests).
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { ToolDef } from './tools/types.ts';

export type RuntimePlugin = { tools?: ToolDef[]; model?: () => BaseChatModel };

export async function loadRuntimePlugin(path: string | undefined): Promise<RuntimePlugin> {
  if (!path) return {};
  const mod = (await import(pathToFileURL(resolve(path)).href)) as { default?: RuntimePlugin };
  return mod.default ?? {};
}
