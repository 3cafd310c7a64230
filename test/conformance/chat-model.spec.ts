// The contract every chat model wrapper keeps, as one spec run against each (the offline model,
// the scripted test model, ChatOpenAI against an OpenAI-compatible server). It is what the runtime
// relies on when it calls a model: the engine binds the visible tools in OpenAI's function format
// and invokes with the turn's abort signal (server/runtime/engine.ts); the router binds one tool
// with a forced tool_choice (server/routing/model-router.ts); summaries invoke without tools
// (server/runtime/context-steps.ts). From the answer they read the text, `tool_calls` (id, name,
// parsed args), `invalid_tool_calls` and `usage_metadata` (priced by server/domain/pricing.ts).
//
// The spec drives every model through one conversation protocol, which the offline model follows
// by design and the others are scripted to follow, so the checks are about the wrapper, not about
// what a model decides:
//   - with `add_note` bound and no tool result yet → exactly one `add_note` call, args
//     `{ text: "Plan: <the last human message>" }`;
//   - otherwise → a text answer containing the last human message, and no tool calls.
// Optional abilities (tools at all, being offline, taking time, failing upstream, malformed
// arguments) are declared per implementation next to its factory: the tests of an ability it lacks
// are not registered (every registered test runs), and one test checks the declaration against the
// subject, so an ability declared but absent fails, and one present but undeclared cannot go untested.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, isAIMessage, SystemMessage, ToolMessage, type AIMessage, type AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { messageText, type ModelProvider, type ModelRole } from '../../server/runtime/models/types.ts';
import { waitFor } from '../helpers/wait.ts';

export const NOTE_TOOL = 'add_note';

/** Tool definitions as the runtime sends them (ToolRegistry.forModel: OpenAI function format). */
export const noteTool = {
  type: 'function' as const,
  function: {
    name: NOTE_TOOL,
    description: 'Append a note to the task log.',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  },
};
const otherTool = {
  type: 'function' as const,
  function: { name: 'paint_wall', description: 'Paint a wall.', parameters: { type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] } },
};

/**
 * The optional abilities of an implementation, declared when the spec is registered: test names are
 * fixed when the file loads, before the subject exists, so which tests apply cannot wait for it.
 */
export type ChatModelAbilities = {
  /** The models call tools (bindTools + tool_calls). */
  tools: boolean;
  /** It answers without reasoning: it must say so, and answer the same input the same way. */
  offline: boolean;
  /** It has a model whose calls take time, to abort mid-call (`slow`). */
  slow: boolean;
  /** It has a model whose calls fail upstream (`failing`). */
  failing: boolean;
  /** It has a wire format, and a model that sends malformed tool arguments on it (`malformed`). */
  malformed: boolean;
};

export type ChatModelSubject = {
  provider: ModelProvider;
  /** `native`: the model streams its answer in pieces; `whole`: it has no streaming of its own and yields the answer as one chunk. */
  streaming: 'native' | 'whole';
  /** What usage the answers carry: token counts, or none at all (never half of them). */
  usage: 'present' | 'absent';
  /** A secret the provider was configured with: it must never show in `info`. */
  secret?: string;
  /** The tool names the model received on its last call, where the subject can see the wire. */
  lastBoundTools?: () => string[] | undefined;
  /** The tool_choice the model received on its last call, where the subject can see the wire. */
  lastToolChoice?: () => unknown;
  /** A model whose calls take minutes unless aborted, and how to tell that a call has started. */
  slow?: { model: BaseChatModel; started: () => boolean };
  /** A model whose calls fail upstream. */
  failing?: BaseChatModel;
  /** A model that, with `add_note` bound, answers a call whose arguments are not valid JSON. */
  malformed?: BaseChatModel;
  close(): Promise<void>;
};

const ROLES: ModelRole[] = ['worker', 'router'];

/** Exactly the protocol's plan call for `human`. */
function assertNoteCall(ai: AIMessage, human: string) {
  assert.ok(isAIMessage(ai), 'an AIMessage');
  assert.equal(ai.tool_calls?.length, 1, `one tool call, got ${JSON.stringify(ai.tool_calls)}`);
  const call = ai.tool_calls![0]!;
  assert.equal(call.name, NOTE_TOOL);
  assert.equal(typeof call.id, 'string', 'the call has an id (tool results are matched by it)');
  assert.ok(call.id!.length > 0);
  assert.equal(typeof call.args, 'object', 'arguments parsed into an object, not left as JSON text');
  assert.deepEqual(call.args, { text: `Plan: ${human}` });
  assert.deepEqual(ai.invalid_tool_calls ?? [], []);
}

/** A text answer of the protocol for `human`. */
function assertTextAnswer(ai: AIMessage, human: string) {
  assert.ok(isAIMessage(ai), 'an AIMessage');
  assert.deepEqual(ai.tool_calls ?? [], [], 'no tool calls');
  const text = messageText(ai);
  assert.equal(typeof text, 'string');
  assert.ok(text.includes(human), `the answer ${JSON.stringify(text)} carries the request`);
}

function assertUsage(ai: AIMessage, mode: 'present' | 'absent') {
  if (mode === 'absent') return assert.equal(ai.usage_metadata, undefined, 'no usage at all, rather than made-up counts');
  const u = ai.usage_metadata;
  assert.ok(u, 'usage_metadata');
  for (const k of ['input_tokens', 'output_tokens', 'total_tokens'] as const) assert.ok(Number.isInteger(u[k]) && u[k] >= 0, `${k} = ${u[k]}`);
  assert.equal(u.total_tokens, u.input_tokens + u.output_tokens);
  const cached = u.input_token_details?.cache_read;
  if (cached !== undefined) assert.ok(cached >= 0 && cached <= u.input_tokens, 'cached input is part of the input');
}

/** Streams a call and adds the chunks up (a model without streaming of its own yields its whole answer once). */
async function streamed(model: { stream(input: BaseMessage[]): Promise<AsyncIterable<AIMessageChunk>> }, input: BaseMessage[]) {
  const chunks: AIMessageChunk[] = [];
  for await (const c of await model.stream(input)) chunks.push(c);
  assert.ok(chunks.length > 0, 'at least one chunk');
  return { chunks, whole: chunks.length === 1 ? chunks[0]! : chunks.reduce((a, b) => concat(a, b)) };
}

export function chatModelConformance(name: string, has: ChatModelAbilities, factory: () => Promise<ChatModelSubject>): void {
  describe(`chat model contract: ${name}`, () => {
    let s: ChatModelSubject;
    before(async () => {
      s = await factory();
    });
    after(async () => {
      await s?.close();
    });
    const chat = (role: ModelRole = 'worker') => s.provider.chat(role);
    const ask = (human: string) => [new SystemMessage('You are a conformance test.'), new HumanMessage(human)];
    /** A test of an optional ability, registered only for an implementation declared to have it. */
    const testIf = (ability: keyof ChatModelAbilities, title: string, run: () => Promise<void>) => {
      if (has[ability]) test(title, run);
    };
    /** The declared model of an ability; the ability's test fails if it is absent. */
    const declared = <K extends 'slow' | 'failing' | 'malformed'>(k: K): NonNullable<ChatModelSubject[K]> => {
      assert.ok(s[k], `declared to have a ${k} model, but the subject has none`);
      return s[k]!;
    };

    test('abilities: the subject has exactly the optional parts declared for it (none goes untested, none is missing)', () => {
      for (const k of ['slow', 'failing', 'malformed'] as const) {
        assert.equal(s[k] !== undefined, has[k], has[k] ? `declared to have a ${k} model, but the subject has none` : `the subject has a ${k} model, which is not declared (and so not tested)`);
      }
      if (has.tools) for (const role of ROLES) assert.equal(typeof s.provider.chat(role).bindTools, 'function', `declared to call tools, but the ${role} model cannot bind them`);
      // `offline` is checked against what the provider says of itself by the info test.
    });

    test('info: model names, a description, `offline` as it is — and never a secret', () => {
      const info = s.provider.info;
      for (const v of [info.provider, info.routerModel, info.workerModel, info.description]) assert.ok(typeof v === 'string' && v.length > 0);
      assert.equal(info.offline, has.offline);
      if (s.secret) assert.ok(!JSON.stringify(info).includes(s.secret), 'the secret does not show');
    });

    test('invoke without tools, for both roles: an AIMessage with a text answer and no tool calls', async () => {
      for (const role of ROLES) {
        const ai = (await chat(role).invoke(ask(`summarise the ${role} notes`))) as AIMessage;
        assertTextAnswer(ai, `summarise the ${role} notes`);
      }
    });

    test('usage_metadata: integer token counts with total = input + output, or absent altogether', async () => {
      assertUsage((await chat().invoke(ask('count my tokens'))) as AIMessage, s.usage);
      if (has.tools) assertUsage((await chat().bindTools!([noteTool]).invoke(ask('count with tools'))) as AIMessage, s.usage);
    });

    testIf('tools', 'bindTools, for a model that calls tools: the call comes back with an id, the bound name and parsed arguments; answered by a ToolMessage of that id, the model goes on', async () => {
      const model = chat().bindTools!([noteTool, otherTool]);
      const human = 'design a poster for the bakery';
      const first = (await model.invoke(ask(human))) as AIMessage;
      assertNoteCall(first, human);
      if (s.lastBoundTools) assert.deepEqual(s.lastBoundTools()?.sort(), [NOTE_TOOL, otherTool.function.name].sort(), 'the model was given the bound tools');
      const call = first.tool_calls![0]!;
      const second = (await model.invoke([...ask(human), first, new ToolMessage({ content: '{"status":"DONE"}', tool_call_id: call.id!, name: call.name })])) as AIMessage;
      assertTextAnswer(second, human);
    });

    testIf('tools', 'bindTools, for a model that calls tools, with a forced tool_choice (as the router binds): accepted, and the call comes back', async () => {
      const choice = { type: 'function', function: { name: NOTE_TOOL } };
      const ai = (await chat('router').bindTools!([noteTool], { tool_choice: choice } as never).invoke(ask('route this message'))) as AIMessage;
      assertNoteCall(ai, 'route this message');
      if (s.lastToolChoice) assert.deepEqual(s.lastToolChoice(), choice, 'the choice reached the model');
    });

    testIf('tools', 'bindTools, for a model that calls tools: only bound tools are called (none bound → none called)', async () => {
      const ai = (await chat().bindTools!([otherTool]).invoke(ask('write a note about the wall'))) as AIMessage;
      for (const c of ai.tool_calls ?? []) assert.equal(c.name, otherTool.function.name, `a call to ${c.name}, which was not bound`);
      assertTextAnswer((await chat().invoke(ask('no tools here'))) as AIMessage, 'no tools here');
    });

    test('stream: pieces for a model that streams, one chunk for one that does not; they add up to what invoke answers (text, tool calls, usage)', async () => {
      const plain = ask('stream me a reply');
      const { chunks, whole } = await streamed(chat(), plain);
      if (s.streaming === 'native') assert.ok(chunks.length > 1, `streamed in pieces, not ${chunks.length}`);
      else assert.equal(chunks.length, 1, 'the whole answer at once');
      const ai = (await chat().invoke(plain)) as AIMessage;
      assert.equal(messageText(whole), messageText(ai));
      assert.deepEqual(whole.tool_calls ?? [], []);
      // Compared as the runtime reads usage (counts; empty detail objects and undefined details alike).
      const counts = (u: AIMessage['usage_metadata']) => u && [u.input_tokens, u.output_tokens, u.total_tokens, u.input_token_details?.cache_read ?? 0];
      if (s.usage === 'present') assert.deepEqual(counts(whole.usage_metadata), counts(ai.usage_metadata));
      if (!has.tools) return;
      const bound = chat().bindTools!([noteTool]);
      const withTools = ask('stream me a plan');
      const streamedCall = (await streamed(bound, withTools)).whole;
      const invoked = (await bound.invoke(withTools)) as AIMessage;
      assertNoteCall(streamedCall as AIMessage, 'stream me a plan');
      // Ids are per call (a model may number its calls), so they are compared for presence only.
      assert.deepEqual(
        streamedCall.tool_calls?.map((c) => [c.name, c.args]),
        invoked.tool_calls?.map((c) => [c.name, c.args]),
      );
    });

    test('concurrent calls on one model instance each get their own answer', async () => {
      const asks = ['first errand', 'second errand', 'third errand'];
      const answers = (await Promise.all(asks.map((h) => chat().invoke(ask(h))))) as AIMessage[];
      answers.forEach((ai, i) => {
        assertTextAnswer(ai, asks[i]!);
        for (const other of asks.filter((_, j) => j !== i)) assert.ok(!messageText(ai).includes(other), `answer ${i} mentions "${other}"`);
      });
    });

    test('abort: a call under an already aborted signal rejects, with no answer', async () => {
      const reason = new Error('the turn was cancelled');
      await assert.rejects(chat().invoke(ask('too late'), { signal: AbortSignal.abort(reason) }));
      if (has.tools) await assert.rejects(chat().bindTools!([noteTool]).invoke(ask('too late'), { signal: AbortSignal.abort(reason) }));
    });

    testIf('slow', 'abort mid-call, for a model that takes time: the call rejects soon after the abort, long before it would answer', async () => {
      const slow = declared('slow');
      const ac = new AbortController();
      let settled: 'answered' | 'rejected' | undefined;
      const call = slow.model.invoke(ask('take your time'), { signal: ac.signal }).then(
        () => (settled = 'answered'),
        () => (settled = 'rejected'),
      );
      await waitFor(() => slow.started(), 'the slow call to start');
      ac.abort(new Error('the turn was cancelled'));
      // The slow model takes minutes: a call that settles within this bound was cut short by the abort.
      await waitFor(() => settled, 'the aborted call to settle', { timeoutMs: 10_000 });
      await call;
      assert.equal(settled, 'rejected');
    });

    testIf('failing', 'upstream failure, for a model that can fail: invoke rejects with an Error, never an empty answer', async () => {
      const failing = declared('failing');
      await assert.rejects(failing.invoke(ask('this will fail')), (e: unknown) => e instanceof Error && e.message.length > 0);
      if (has.tools) await assert.rejects(failing.bindTools!([noteTool]).invoke(ask('this will fail')), Error);
    });

    testIf('malformed', 'malformed tool arguments, for a model with a wire format: reported in invalid_tool_calls with the call id and name — not thrown, not dropped', async () => {
      const ai = (await declared('malformed').bindTools!([noteTool]).invoke(ask('a broken plan'))) as AIMessage;
      assert.deepEqual(ai.tool_calls ?? [], []);
      assert.equal(ai.invalid_tool_calls?.length, 1);
      const bad = ai.invalid_tool_calls![0]!;
      assert.equal(bad.name, NOTE_TOOL);
      assert.ok(typeof bad.id === 'string' && bad.id.length > 0, 'the id, so the runtime can answer the call');
      assert.equal(typeof bad.args, 'string', 'the raw arguments');
    });

    testIf('offline', 'offline, for the offline model: says it is offline instead of pretending, and answers identical input identically', async () => {
      const answer = (await chat().invoke(ask('make it pop'))) as AIMessage;
      assert.match(messageText(answer), /offline/i);
      const input = ask('design a logo');
      const bound = chat().bindTools!([noteTool]);
      const pick = (m: AIMessage) => ({ content: m.content, tool_calls: m.tool_calls, usage: m.usage_metadata });
      assert.deepEqual(pick((await bound.invoke(input)) as AIMessage), pick((await bound.invoke(input)) as AIMessage));
    });
  });
}
