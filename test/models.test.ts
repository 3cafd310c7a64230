// Model providers for the agent runtime: the real ChatOpenAI client against a local
// OpenAI-compatible stub (tool calling round-trip, usage), the deterministic offline model,
// and the scripted test model.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { OfflineChatModel } from '../server/runtime/models/offline-model.ts';
import { createModelProvider, scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { eventually } from './helpers/produce.ts';

const addNote = {
  name: 'add_note',
  description: 'Append a note to the task log.',
  schema: z.object({ text: z.string().describe('The note text') }),
};

interface StubRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: any;
}

describe('ChatOpenAI against a local OpenAI-compatible stub', () => {
  let server: Server;
  let port = 0;
  const requests: StubRequest[] = [];

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const body = raw ? JSON.parse(raw) : undefined;
        requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
          return;
        }
        const sawToolResult = (body.messages as { role: string }[]).some((m) => m.role === 'tool');
        const message = sawToolResult
          ? { role: 'assistant', content: 'Noted: hi' }
          : {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'add_note', arguments: '{"text":"hi"}' } }],
            };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${requests.length}`,
            object: 'chat.completion',
            created: 1_700_000_000,
            model: body.model,
            choices: [{ index: 0, message, finish_reason: sawToolResult ? 'stop' : 'tool_calls', logprobs: null }],
            usage: sawToolResult
              ? { prompt_tokens: 30, completion_tokens: 4, total_tokens: 34 }
              : { prompt_tokens: 21, completion_tokens: 9, total_tokens: 30 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('tool call round-trip with zod v4 tool schema, auth header, model name and usage', { timeout: 10_000 }, async () => {
    const provider = createModelProvider({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'test', maxRetries: 0, timeoutMs: 5_000 });
    assert.equal(provider.info.provider, 'openai');
    assert.equal(provider.info.offline, false);
    assert.equal(provider.info.workerModel, 'gpt-4.1');
    assert.equal(provider.info.routerModel, 'gpt-4.1-mini');
    assert.ok(!provider.info.description.includes('test'), 'description must not leak the API key');

    const bound = provider.chat('worker').bindTools!([addNote]);
    const messages: BaseMessage[] = [new SystemMessage('You are Atelier.'), new HumanMessage('Write a note saying hi')];
    const ai = await bound.invoke(messages);

    assert.equal(ai.tool_calls?.length, 1);
    const call = ai.tool_calls?.[0];
    assert.equal(call?.name, 'add_note');
    assert.deepEqual(call?.args, { text: 'hi' });
    assert.equal(call?.id, 'call_1');
    assert.deepEqual(
      { input: ai.usage_metadata?.input_tokens, output: ai.usage_metadata?.output_tokens, total: ai.usage_metadata?.total_tokens },
      { input: 21, output: 9, total: 30 },
    );

    assert.equal(requests.length, 1);
    const first = requests[0]!;
    assert.equal(first.headers.authorization, 'Bearer test');
    assert.equal(first.body.model, 'gpt-4.1');
    assert.notEqual(first.body.stream, true);
    assert.deepEqual(
      first.body.messages.map((m: { role: string }) => m.role),
      ['system', 'user'],
    );
    const toolDef = first.body.tools?.[0];
    assert.equal(toolDef?.type, 'function');
    assert.equal(toolDef?.function?.name, 'add_note');
    assert.equal(toolDef?.function?.description, 'Append a note to the task log.');
    assert.equal(toolDef?.function?.parameters?.type, 'object');
    assert.equal(toolDef?.function?.parameters?.properties?.text?.type, 'string');
    assert.deepEqual(toolDef?.function?.parameters?.required, ['text']);

    // Send the tool result back: the AIMessage (with its tool_calls) followed by a ToolMessage
    // whose tool_call_id references the call id.
    const final = await bound.invoke([
      ...messages,
      ai,
      new ToolMessage({ content: 'note saved', tool_call_id: call!.id!, name: 'add_note' }),
    ]);
    assert.equal(final.content, 'Noted: hi');
    assert.deepEqual(final.tool_calls ?? [], []);
    assert.equal(final.usage_metadata?.total_tokens, 34);

    assert.equal(requests.length, 2);
    const second = requests[1]!;
    const roles = second.body.messages.map((m: { role: string }) => m.role);
    assert.deepEqual(roles, ['system', 'user', 'assistant', 'tool']);
    assert.equal(second.body.messages[2].tool_calls?.[0]?.id, 'call_1');
    assert.equal(second.body.messages[2].tool_calls?.[0]?.function?.name, 'add_note');
    assert.deepEqual(JSON.parse(second.body.messages[2].tool_calls?.[0]?.function?.arguments), { text: 'hi' });
    assert.equal(second.body.messages[3].tool_call_id, 'call_1');
    assert.equal(second.body.messages[3].content, 'note saved');

    // The router role uses the router model.
    await provider.chat('router').invoke([new HumanMessage('route me')]);
    assert.equal(requests[2]?.body.model, 'gpt-4.1-mini');
    assert.equal(requests[2]?.body.tools, undefined);
  });
});

describe('OfflineChatModel', () => {
  test('createModelProvider({}) is offline', () => {
    const provider = createModelProvider({});
    assert.equal(provider.info.provider, 'offline');
    assert.equal(provider.info.offline, true);
    assert.match(provider.info.description, /no model is configured/i);
    assert.ok(provider.chat('worker') instanceof OfflineChatModel);
    assert.equal(createModelProvider({ apiKey: '  ', baseUrl: '' }).info.offline, true);
  });

  test('records a note first, then answers honestly; deterministic', async () => {
    const model = createModelProvider({}).chat('worker');
    const bound = model.bindTools!([addNote]);
    const input = [new SystemMessage('sys'), new HumanMessage('Design   a logo\nfor the bakery')];

    const a = await bound.invoke(input);
    const b = await bound.invoke(input);
    const pick = (m: typeof a) => ({ content: m.content, tool_calls: m.tool_calls, usage: m.usage_metadata });
    assert.deepEqual(pick(a), pick(b));

    assert.equal(a.content, '');
    assert.equal(a.tool_calls?.length, 1);
    assert.equal(a.tool_calls?.[0]?.name, 'add_note');
    assert.deepEqual(a.tool_calls?.[0]?.args, { text: 'Plan: Design a logo for the bakery' });
    assert.equal(a.tool_calls?.[0]?.id, 'offline-0');
    assert.ok((a.usage_metadata?.input_tokens ?? 0) > 0);
    assert.ok((a.usage_metadata?.output_tokens ?? 0) > 0);
    assert.equal(a.usage_metadata?.total_tokens, (a.usage_metadata?.input_tokens ?? 0) + (a.usage_metadata?.output_tokens ?? 0));

    const next = [...input, a, new ToolMessage({ content: 'ok', tool_call_id: a.tool_calls![0]!.id! })];
    const c = await bound.invoke(next);
    const d = await bound.invoke(next);
    assert.deepEqual(pick(c), pick(d));
    assert.deepEqual(c.tool_calls ?? [], []);
    assert.equal(typeof c.content, 'string');
    assert.match(c.content as string, /offline/);
    assert.match(c.content as string, /Recorded: Design a logo for the bakery/);
  });

  test('without tools it answers directly; long input is truncated to 200 chars', async () => {
    const model = new OfflineChatModel();
    const long = 'x'.repeat(500);
    const ai = await model.invoke([new HumanMessage(long)]);
    assert.deepEqual(ai.tool_calls ?? [], []);
    assert.match(ai.content as string, /^\[offline model\]/);
    assert.ok((ai.content as string).endsWith(`Recorded: ${'x'.repeat(200)}`));
  });

  test('accepts LangChain tool() objects and OpenAI-format tool definitions', async () => {
    const lcTool = tool(async ({ text }: { text: string }) => text, addNote);
    const a = await new OfflineChatModel().bindTools([lcTool]).invoke([new HumanMessage('hello')]);
    assert.equal(a.tool_calls?.[0]?.name, 'add_note');
    const b = await new OfflineChatModel()
      .bindTools([{ type: 'function', function: { name: 'add_note', parameters: { type: 'object', properties: {} } } }])
      .invoke([new HumanMessage('hello')]);
    assert.equal(b.tool_calls?.[0]?.name, 'add_note');
    const c = await new OfflineChatModel()
      .bindTools([{ name: 'other', description: 'x', schema: z.object({}) }])
      .invoke([new HumanMessage('hello')]);
    assert.deepEqual(c.tool_calls ?? [], []);
  });
});

describe('ScriptedChatModel', () => {
  test('counts calls across bindTools copies and returns scripted tool calls', async () => {
    const model = new ScriptedChatModel(({ call, tools }) =>
      call === 0
        ? { toolCalls: [{ name: 'add_note', args: { text: `tools=${tools.join(',')}` } }] }
        : { content: `done after ${call} calls` },
    );
    const provider = scriptedProvider(model);
    assert.equal(provider.info.provider, 'scripted');
    const b1 = provider.chat('worker').bindTools!([addNote]);
    const b2 = provider.chat('router').bindTools!([addNote, { name: 'finish', description: 'done', schema: z.object({}) }]);

    const first = await b1.invoke([new HumanMessage('go')]);
    assert.equal(model.calls, 1);
    assert.deepEqual(first.tool_calls?.map((c) => ({ id: c.id, name: c.name, args: c.args })), [
      { id: 'scripted-0-0', name: 'add_note', args: { text: 'tools=add_note' } },
    ]);

    const second = await b2.invoke([
      new HumanMessage('go'),
      new AIMessage({ content: '', tool_calls: [{ id: 'scripted-0-0', name: 'add_note', args: { text: 'x' } }] }),
      new ToolMessage({ content: 'ok', tool_call_id: 'scripted-0-0' }),
    ]);
    assert.equal(model.calls, 2);
    assert.equal(second.content, 'done after 1 calls');
    assert.equal(model.received.length, 2);
    assert.equal(model.received[1]?.length, 3);
    assert.deepEqual(model.receivedTools, [['add_note'], ['add_note', 'finish']]);
    assert.ok((second.usage_metadata?.total_tokens ?? 0) > 0);
  });

  test('latencyMs delays and honours abort; script errors propagate', async () => {
    // The latency is far longer than any test may wait, so a call that rejects (with the abort's
    // reason) before the script ran was cut short by the abort, not by the latency running out.
    const slow = new ScriptedChatModel(() => ({ content: 'late' }), { latencyMs: 600_000 });
    const ac = new AbortController();
    const pending = slow.invoke([new HumanMessage('x')], { signal: ac.signal });
    await eventually(() => slow.calls === 1, 'the call waiting out its latency');
    ac.abort(new Error('stop'));
    await assert.rejects(pending, /stop/);
    assert.equal(slow.calls, 1);

    const broken = new ScriptedChatModel(() => {
      throw new Error('script exploded');
    });
    await assert.rejects(broken.invoke([new HumanMessage('x')]), /script exploded/);
  });
});
