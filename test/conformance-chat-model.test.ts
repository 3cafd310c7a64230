// The chat model contract (test/conformance/chat-model.spec.ts) run against every model wrapper the
// runtime can be given: the offline model (no settings), the scripted test model, and ChatOpenAI
// (the real client, over HTTP) against a local OpenAI-compatible server. The scripted model and the
// server follow the spec's conversation protocol by script; the offline model follows it by design.
import { messageText } from '../server/runtime/models/types.ts';
import { createModelProvider, scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel, type ScriptContext, type ScriptStep } from '../server/runtime/models/scripted-model.ts';
import { chatModelConformance, NOTE_TOOL } from './conformance/chat-model.spec.ts';
import { startOpenAIStub } from './helpers/openai-stub.ts';

/** The spec's protocol, as a script. */
function protocol({ messages, tools }: ScriptContext): ScriptStep {
  const lastHuman = [...messages].reverse().find((m) => m.type === 'human');
  const text = lastHuman ? messageText(lastHuman) : '';
  if (tools.includes(NOTE_TOOL) && !messages.some((m) => m.type === 'tool')) return { toolCalls: [{ name: NOTE_TOOL, args: { text: `Plan: ${text}` } }] };
  return { content: `Noted: ${text}` };
}

// What each wrapper can be made to do here: the offline model answers at once, cannot fail and
// hands over arguments as objects; the scripted model has no wire format to malform.
chatModelConformance('OfflineChatModel (no model configured)', { tools: true, offline: true, slow: false, failing: false, malformed: false }, async () => ({
  provider: createModelProvider({}),
  streaming: 'whole',
  usage: 'present',
  close: async () => {},
}));

chatModelConformance('ScriptedChatModel (the test model)', { tools: true, offline: false, slow: true, failing: true, malformed: false }, async () => {
  const model = new ScriptedChatModel(protocol);
  const slow = new ScriptedChatModel(protocol, { latencyMs: 600_000 });
  return {
    provider: scriptedProvider(model),
    streaming: 'whole',
    usage: 'present',
    lastBoundTools: () => model.receivedTools.at(-1),
    slow: { model: slow, started: () => slow.calls > 0 },
    failing: new ScriptedChatModel(() => {
      throw new Error('the scripted upstream failed');
    }),
    close: async () => {},
  };
});

chatModelConformance('ChatOpenAI (real client over HTTP, OpenAI-compatible server)', { tools: true, offline: false, slow: true, failing: true, malformed: true }, async () => {
  const SECRET = 'sk-conformance-not-to-be-shown';
  let calls = 0;
  const stub = await startOpenAIStub(
    (body) => {
      const lastUser = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      const tools = (body.tools ?? []).map((t) => t.function.name);
      if (tools.includes(NOTE_TOOL) && !body.messages.some((m) => m.role === 'tool')) {
        const args = body.model === 'conformance-malformed' ? '{"text": "Plan: cut off' : JSON.stringify({ text: `Plan: ${lastUser}` });
        return { role: 'assistant', content: null, tool_calls: [{ id: `call_${++calls}`, type: 'function', function: { name: NOTE_TOOL, arguments: args } }] };
      }
      return { role: 'assistant', content: `Noted: ${lastUser}` };
    },
    {
      chat: (body) =>
        body.model === 'conformance-slow'
          ? { delayMs: 300_000 }
          : body.model === 'conformance-failing'
            ? { error: { status: 500, message: 'the upstream broke' } }
            : undefined,
    },
  );
  const openai = (workerModel: string, maxRetries?: number) =>
    createModelProvider({ apiKey: SECRET, baseUrl: stub.baseUrl, workerModel, routerModel: 'conformance-router', ...(maxRetries !== undefined ? { maxRetries } : {}) });
  return {
    // The default retry setting, as the app runs it.
    provider: openai('conformance-worker'),
    streaming: 'native',
    usage: 'present',
    secret: SECRET,
    lastBoundTools: () => stub.requests.at(-1)?.tools?.map((t) => t.function.name),
    lastToolChoice: () => stub.requests.at(-1)?.tool_choice,
    slow: { model: openai('conformance-slow', 0).chat('worker'), started: () => stub.requests.some((r) => r.model === 'conformance-slow') },
    // No retries: the failure itself is under test, not the client's backoff.
    failing: openai('conformance-failing', 0).chat('worker'),
    malformed: openai('conformance-malformed', 0).chat('worker'),
    close: () => stub.close(),
  };
});
