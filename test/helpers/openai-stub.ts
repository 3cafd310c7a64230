// A local OpenAI-compatible server (Chat Completions, non-streaming) for tests of the real
// ChatOpenAI client: records each request body and answers with the message `respond` returns.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type StubBody = {
  model: string;
  messages: { role: string; content: string | null; tool_call_id?: string; tool_calls?: { id: string }[] }[];
  tools?: { function: { name: string; parameters: unknown } }[];
  tool_choice?: unknown;
};

export const toolCall = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

export async function startOpenAIStub(respond: (body: StubBody) => Record<string, unknown>) {
  const requests: StubBody[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as StubBody;
      requests.push(body);
      const message = respond(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: 1_700_000_000,
          model: body.model,
          choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
