import type { BaseChatModel, BindToolsInput } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';

/** Which model a caller wants: a cheap "router" model or the main "worker" model. */
export type ModelRole = 'router' | 'worker';

export interface ModelInfo {
  provider: 'openai' | 'offline' | 'scripted';
  workerModel: string;
  routerModel: string;
  /** true when no real model is configured (answers are canned / deterministic). */
  offline: boolean;
  /** Human-readable one-liner, safe to show in UIs and logs (never contains secrets). */
  description: string;
}

export interface ModelProvider {
  info: ModelInfo;
  chat(role: ModelRole): BaseChatModel;
}

/**
 * Best-effort name of a tool in any format accepted by `bindTools`:
 * LangChain tools / `{ name, description, schema }` objects (`name`),
 * OpenAI tool definitions (`{ type: 'function', function: { name } }`),
 * or OpenAI legacy function definitions (`{ name, parameters }`).
 */
export function toolNameOf(tool: BindToolsInput): string | undefined {
  if (tool === null || typeof tool !== 'object') return undefined;
  const t = tool as { name?: unknown; function?: { name?: unknown } };
  if (typeof t.name === 'string') return t.name;
  if (t.function && typeof t.function === 'object' && typeof t.function.name === 'string') return t.function.name;
  return undefined;
}

export function toolNamesOf(tools: readonly BindToolsInput[] | undefined): string[] {
  const names: string[] = [];
  for (const tool of tools ?? []) {
    const name = toolNameOf(tool);
    if (name !== undefined) names.push(name);
  }
  return names;
}

/** Plain text of a message (string content, or the text parts of block content). */
export function messageText(message: BaseMessage): string {
  const content: unknown = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let out = '';
  for (const block of content) {
    if (typeof block === 'string') out += block;
    else if (block && typeof block === 'object' && typeof (block as { text?: unknown }).text === 'string') {
      out += (block as { text: string }).text;
    }
  }
  return out;
}

/** Deterministic token estimate (≈ 4 characters per token). */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** Characters "seen" by a model for a message: text plus any tool call names/args. */
export function messageChars(message: BaseMessage): number {
  let n = messageText(message).length;
  const toolCalls = (message as { tool_calls?: { name: string; args: unknown }[] }).tool_calls;
  for (const call of toolCalls ?? []) n += call.name.length + JSON.stringify(call.args ?? {}).length;
  return n;
}
