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

/**
 * A tiny deterministic "embedding": words map to concept dimensions across languages, so texts
 * about the same thing in different words (or languages) are similar and others are not.
 */
const CONCEPTS: string[][] = [
  ['bicycle', 'bike', 'cycling', 'fahrrad', 'radrennen', 'velo', '自行车', '单车'],
  ['poster', 'plakat', 'affiche', '海报'],
  ['race', 'rennen', 'course', '比赛'],
  ['bakery', 'bäckerei', 'boulangerie', '面包'],
  ['brighter', 'heller', 'lumineux', '亮'],
];
export function conceptEmbedding(text: string): number[] {
  const t = text.toLowerCase();
  const v: number[] = CONCEPTS.map((words) => (words.some((w) => t.includes(w)) ? 1 : 0));
  v.push(0.05); // never the zero vector
  return v;
}

export async function startOpenAIStub(respond: (body: StubBody) => Record<string, unknown>) {
  const requests: StubBody[] = [];
  const embeddingRequests: { model: string; input: string[] }[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (req.url?.endsWith('/embeddings')) {
        const body = JSON.parse(raw) as { model: string; input: string[] | string };
        const input = Array.isArray(body.input) ? body.input : [body.input];
        embeddingRequests.push({ model: body.model, input });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            model: body.model,
            data: input.map((s, index) => ({ object: 'embedding', index, embedding: conceptEmbedding(s) })),
            usage: { prompt_tokens: 1, total_tokens: 1 },
          }),
        );
        return;
      }
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
    embeddingRequests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
