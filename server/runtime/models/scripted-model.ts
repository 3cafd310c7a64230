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
import { estimateTokens, messageChars, toolNamesOf } from './types.ts';

export type ScriptedCallOptions = BaseChatModelCallOptions & {
  tools?: BindToolsInput[];
};

export interface ScriptContext {
  /** The messages of this call (a copy). */
  messages: BaseMessage[];
  /** 0-based index of this call on the model instance (shared across all bindTools copies). */
  call: number;
  /** Names of the tools bound for this call. */
  tools: string[];
}

export interface ScriptStep {
  content?: string;
  /** `id` defaults to `scripted-<call>-<index>`. */
  toolCalls?: { name: string; args: Record<string, unknown>; id?: string }[];
  /** Override the (deterministic, chars/4) usage estimate. */
  usage?: { input_tokens: number; output_tokens: number };
}

export type Script = (ctx: ScriptContext) => ScriptStep | Promise<ScriptStep>;

export interface ScriptedChatModelOptions extends BaseChatModelParams {
  /** Artificial delay per call (abortable through the call's signal). */
  latencyMs?: number;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('Aborted'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error('Aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Test model driven by a script function. `bindTools` returns a RunnableBinding around *this*
 * instance, so every bound copy shares `calls` and `received`.
 * An exception thrown by the script propagates out of `invoke`.
 */
export class ScriptedChatModel extends BaseChatModel<ScriptedCallOptions> {
  static override lc_name(): string {
    return 'ScriptedChatModel';
  }

  /** Number of generations started (incremented before the script runs). */
  calls = 0;
  /** Messages received, one array per call. */
  readonly received: BaseMessage[][] = [];
  /** Tool names bound, one array per call. */
  readonly receivedTools: string[][] = [];
  readonly latencyMs: number;
  private readonly script: Script;

  constructor(script: Script, options: ScriptedChatModelOptions = {}) {
    const { latencyMs, ...fields } = options;
    super(fields);
    this.script = script;
    this.latencyMs = latencyMs ?? 0;
  }

  _llmType(): string {
    return 'atelier-scripted';
  }

  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<ScriptedCallOptions>,
  ): Runnable<BaseLanguageModelInput, AIMessageChunk, ScriptedCallOptions> {
    return this.withConfig({ ...kwargs, tools } as Partial<ScriptedCallOptions>);
  }

  async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']): Promise<ChatResult> {
    const call = this.calls++;
    const tools = toolNamesOf(options.tools);
    this.received.push([...messages]);
    this.receivedTools.push(tools);
    if (this.latencyMs > 0) await sleep(this.latencyMs, options.signal);
    options.signal?.throwIfAborted();

    const step = await this.script({ messages: [...messages], call, tools });
    const content = step.content ?? '';
    const toolCalls = (step.toolCalls ?? []).map((tc, i) => ({
      id: tc.id ?? `scripted-${call}-${i}`,
      name: tc.name,
      args: tc.args,
      type: 'tool_call' as const,
    }));
    const input_tokens =
      step.usage?.input_tokens ?? estimateTokens(messages.reduce((n, m) => n + messageChars(m), 0));
    const output_tokens =
      step.usage?.output_tokens ??
      estimateTokens(content.length + toolCalls.reduce((n, c) => n + c.name.length + JSON.stringify(c.args).length, 0));
    const message = new AIMessage({
      content,
      tool_calls: toolCalls,
      usage_metadata: { input_tokens, output_tokens, total_tokens: input_tokens + output_tokens },
      response_metadata: {
        model_name: 'atelier-scripted',
        finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      },
    });
    return { generations: [{ text: content, message }] };
  }
}
