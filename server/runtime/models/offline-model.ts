import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
} from '@langchain/core/language_models/chat_models';
import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import { AIMessage, type AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { Runnable } from '@langchain/core/runnables';
import { offlineFlowReply } from './offline-flows.ts';
import { offlineTexts } from './offline/texts.ts';
import { offlineToolUse } from './offline/tool-use.ts';
import { estimateTokens, messageChars, messageText, toolNamesOf } from './types.ts';

export type OfflineCallOptions = BaseChatModelCallOptions & {
  /** Set by `bindTools`; only the tool names matter to the offline model. */
  tools?: BindToolsInput[];
};

export const OFFLINE_NOTE_TOOL = 'add_note';
const SUMMARY_CHARS = 200;

export interface OfflineReply {
  content: string;
  toolCalls: { id: string; name: string; args: Record<string, unknown>; type: 'tool_call' }[];
}

function summarize(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > SUMMARY_CHARS ? oneLine.slice(0, SUMMARY_CHARS) : oneLine;
}

/**
 * The offline model's decision, as a pure function of the conversation and the bound tool names.
 * - a tool of another app named in the person's words → call it (offline/tool-use.ts)
 * - no ToolMessage yet and `add_note` bound → call `add_note({ text: "Plan: <last human message>" })`
 * - otherwise → a plain answer that states it is an offline model.
 */
export function offlineReply(messages: readonly BaseMessage[], toolNames: readonly string[], tools?: readonly BindToolsInput[]): OfflineReply {
  // A tool of another app (MCP) the person named comes first (offline/tool-use.ts); then the
  // creative flows by explicit rules (offline-flows.ts) when the checklist tools are bound.
  const flow = offlineToolUse(messages, tools, toolNames) ?? offlineFlowReply(messages, toolNames);
  if (flow) {
    const aiCount = messages.filter((m) => m.type === 'ai').length;
    return { content: flow.content, toolCalls: flow.calls.map((c, i) => ({ id: `offline-${aiCount}-${i}`, name: c.name, args: c.args, type: 'tool_call' as const })) };
  }
  const hasToolResult = messages.some((m) => m.type === 'tool');
  const aiCount = messages.filter((m) => m.type === 'ai').length;
  const lastHuman = [...messages].reverse().find((m) => m.type === 'human');
  const summary = lastHuman ? summarize(messageText(lastHuman)) : '';

  if (!hasToolResult && toolNames.includes(OFFLINE_NOTE_TOOL)) {
    return {
      content: '',
      toolCalls: [
        {
          id: `offline-${aiCount}`,
          name: OFFLINE_NOTE_TOOL,
          args: { text: `Plan: ${summary || '(no request given)'}` },
          type: 'tool_call',
        },
      ],
    };
  }
  // In the task's language (the brief says which), like everything a person reads.
  const brief = messages.map(messageText).find((t) => t.startsWith('Task:')) ?? '';
  const t = offlineTexts(brief);
  return { content: `${t.offline.tag} ${t.offline.cannotReason(summary || t.offline.noRequest)}`, toolCalls: [] };
}

/**
 * Honest, deterministic stand-in used when no OpenAI settings exist. It never pretends to reason:
 * it records a note (when an `add_note` tool is bound) and then says it is offline.
 * No randomness, no clock: identical input → identical content / tool_calls / usage_metadata.
 * (The message `id` is left unset, so LangChain fills in its per-run `run-<uuid>` id.)
 */
export class OfflineChatModel extends BaseChatModel<OfflineCallOptions> {
  static override lc_name(): string {
    return 'OfflineChatModel';
  }

  constructor(fields: BaseChatModelParams = {}) {
    super(fields);
  }

  _llmType(): string {
    return 'atelier-offline';
  }

  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<OfflineCallOptions>,
  ): Runnable<BaseLanguageModelInput, AIMessageChunk, OfflineCallOptions> {
    return this.withConfig({ ...kwargs, tools } as Partial<OfflineCallOptions>);
  }

  async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']): Promise<ChatResult> {
    options.signal?.throwIfAborted();
    const reply = offlineReply(messages, toolNamesOf(options.tools), options.tools);
    const inputChars = messages.reduce((n, m) => n + messageChars(m), 0);
    const outputChars =
      reply.content.length +
      reply.toolCalls.reduce((n, c) => n + c.name.length + JSON.stringify(c.args).length, 0);
    const input_tokens = estimateTokens(inputChars);
    const output_tokens = estimateTokens(outputChars);
    const message = new AIMessage({
      content: reply.content,
      tool_calls: reply.toolCalls,
      usage_metadata: { input_tokens, output_tokens, total_tokens: input_tokens + output_tokens },
      response_metadata: {
        model_name: 'atelier-offline',
        finish_reason: reply.toolCalls.length > 0 ? 'tool_calls' : 'stop',
      },
    });
    return { generations: [{ text: reply.content, message }] };
  }
}
