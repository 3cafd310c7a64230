// A local OpenAI-compatible server for tests of the real ChatOpenAI client: Chat Completions, plain
// or streamed as server-sent chunks (`stream: true`), answering with the message `respond` returns —
// after a delay or as an HTTP error when `chat` says so; records each request body. Also embeddings,
// and image generations (a small real PNG as b64_json, or an error on demand).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodePng } from '../../server/generation/png.ts';

export type StubBody = {
  model: string;
  messages: { role: string; content: string | null; tool_call_id?: string; tool_calls?: { id: string }[] }[];
  tools?: { function: { name: string; parameters: unknown } }[];
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
};

/** How the chat endpoint answers a request, beyond its message: after a delay, or with an HTTP error instead. */
export type ChatAnswer = { delayMs?: number; error?: { status: number; message: string } };

const USAGE = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };

/** A message as Chat Completions stream chunks: role, the content in pieces, each tool call's name then its arguments in pieces, the finish. */
function streamChunks(message: Record<string, unknown>): Record<string, unknown>[] {
  const pieces = (text: string) => (text.length < 2 ? [text] : [text.slice(0, Math.ceil(text.length / 2)), text.slice(Math.ceil(text.length / 2))]);
  const deltas: Record<string, unknown>[] = [{ role: 'assistant', content: '' }];
  if (typeof message.content === 'string' && message.content) for (const c of pieces(message.content)) deltas.push({ content: c });
  const calls = (message.tool_calls ?? []) as { id: string; type: string; function: { name: string; arguments: string } }[];
  calls.forEach((tc, index) => {
    deltas.push({ tool_calls: [{ index, id: tc.id, type: tc.type, function: { name: tc.function.name, arguments: '' } }] });
    for (const a of pieces(tc.function.arguments)) deltas.push({ tool_calls: [{ index, function: { arguments: a } }] });
  });
  return [
    ...deltas.map((delta) => ({ choices: [{ index: 0, delta, finish_reason: null }] })),
    { choices: [{ index: 0, delta: {}, finish_reason: calls.length ? 'tool_calls' : 'stop' }] },
  ];
}

export const toolCall = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

/**
 * A deterministic stand-in for an embedding model that knows no words: each word's character
 * trigrams (with word boundaries) are hashed into EMBEDDING_DIMS buckets and counted. Texts that
 * share pieces of words are close (a compound and its parts, inflections, typos); texts in other
 * words are not, whatever they mean — it understands nothing, so tests using it show the retrieval
 * path, not semantics.
 */
export const EMBEDDING_DIMS = 256;
export function trigramEmbedding(text: string): number[] {
  const v = new Array<number>(EMBEDDING_DIMS + 1).fill(0);
  const words = text.toLowerCase().normalize('NFKC').split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  for (const w of words) {
    const padded = `#${w}#`;
    for (let i = 0; i + 3 <= padded.length; i++) {
      let h = 0x811c9dc5; // FNV-1a
      for (const ch of padded.slice(i, i + 3)) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193) >>> 0;
      v[h % EMBEDDING_DIMS]! += 1;
    }
  }
  v[EMBEDDING_DIMS] = 0.05; // never the zero vector
  return v;
}

export type ImageStubBody = { model: string; prompt: string; n?: number; size?: string; quality?: string };
/** What the images endpoint answers: the default PNG, or an HTTP error; after `delayMs` (else the stub's `imageDelayMs`). */
export type ImageAnswer = ({ png?: Buffer } | { error: { status: number; message: string } }) & { delayMs?: number };

/** A small real PNG (16×16 gradient) — what the stub's images endpoint returns by default. */
export const stubPng = () => encodePng(16, 16, (x, y) => [x * 16, y * 16, 128]);

export async function startOpenAIStub(
  respond: (body: StubBody) => Record<string, unknown>,
  opts: { images?: (body: ImageStubBody) => ImageAnswer; imageDelayMs?: number; chat?: (body: StubBody) => ChatAnswer | undefined } = {},
) {
  const requests: StubBody[] = [];
  const embeddingRequests: { model: string; input: string[] }[] = [];
  const imageRequests: ImageStubBody[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (req.url?.endsWith('/images/generations')) {
        const body = JSON.parse(raw) as ImageStubBody;
        imageRequests.push(body);
        const answer = opts.images?.(body) ?? {};
        setTimeout(() => {
          if ('error' in answer) {
            res.writeHead(answer.error.status, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: { message: answer.error.message, type: 'invalid_request_error', code: null } }));
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ created: 1_700_000_000, data: [{ b64_json: (answer.png ?? stubPng()).toString('base64') }] }));
        }, answer.delayMs ?? opts.imageDelayMs ?? 0);
        return;
      }
      if (req.url?.endsWith('/embeddings')) {
        const body = JSON.parse(raw) as { model: string; input: string[] | string };
        const input = Array.isArray(body.input) ? body.input : [body.input];
        embeddingRequests.push({ model: body.model, input });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            model: body.model,
            data: input.map((s, index) => ({ object: 'embedding', index, embedding: trigramEmbedding(s) })),
            usage: { prompt_tokens: 1, total_tokens: 1 },
          }),
        );
        return;
      }
      const body = JSON.parse(raw) as StubBody;
      requests.push(body);
      const n = requests.length;
      const answer = opts.chat?.(body) ?? {};
      const send = () => {
        if (res.destroyed) return; // the client gave up (an aborted call)
        if (answer.error) {
          res.writeHead(answer.error.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: answer.error.message, type: 'server_error', code: null } }));
          return;
        }
        const message = respond(body);
        const head = { id: `chatcmpl-${n}`, created: 1_700_000_000, model: body.model };
        if (body.stream) {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          for (const c of streamChunks(message)) res.write(`data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', ...c })}\n\n`);
          if (body.stream_options?.include_usage) res.write(`data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', choices: [], usage: USAGE })}\n\n`);
          res.end('data: [DONE]\n\n');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            ...head,
            object: 'chat.completion',
            choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
            usage: USAGE,
          }),
        );
      };
      if (!answer.delayMs) return send();
      const timer = setTimeout(send, answer.delayMs);
      // A delayed answer is dropped with its connection: an aborted call, or the stub closing.
      res.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    embeddingRequests,
    imageRequests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
