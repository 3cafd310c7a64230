// Semantic retrieval for the router when an embedding model is configured: it finds older tasks
// that share no words with the message (another language, other wording). Vectors are stored
// L2-normalised per task and refreshed lazily when the task's text changes; similarity is a dot
// product computed in PostgreSQL over the workspace's tasks (no extension needed).
import { createHash } from 'node:crypto';
import { OpenAIEmbeddings } from '@langchain/openai';
import type { PrismaClient } from '../db/client.ts';
import { similarTasks, staleTaskEmbeddings, upsertTaskEmbedding } from '../store/task-index.ts';

export type Embedder = { model: string; embed(texts: string[]): Promise<number[][]> };

export const SEMANTIC_CANDIDATES = 5;
const REFRESH_BATCH = 64;

export function createEmbedder(opts: { apiKey?: string; baseUrl?: string; model?: string; fetch?: (url: string | URL | Request, init?: RequestInit) => Promise<Response> }): Embedder | null {
  if (!opts.apiKey?.trim() && !opts.baseUrl?.trim()) return null;
  const model = opts.model ?? 'text-embedding-3-small';
  const client = new OpenAIEmbeddings({
    model,
    apiKey: opts.apiKey?.trim() || 'not-needed',
    configuration: { ...(opts.baseUrl ? { baseURL: opts.baseUrl } : {}), ...(opts.fetch ? { fetch: opts.fetch } : {}) },
    maxRetries: 2,
  });
  return { model, embed: (texts) => client.embedDocuments(texts) };
}

export function unit(v: number[]): number[] {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / n);
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);
const pgArray = (v: number[]) => `{${v.map((x) => (Number.isFinite(x) ? x.toFixed(7) : '0')).join(',')}}`;

/** Embeds the workspace's tasks whose text changed since their last embedding (most recent first). */
export async function refreshEmbeddings(prisma: PrismaClient, embedder: Embedder, workspaceId: string): Promise<number> {
  const stale = await staleTaskEmbeddings(prisma, { workspaceId, model: embedder.model, limit: REFRESH_BATCH });
  if (!stale.length) return 0;
  const vectors = await embedder.embed(stale.map((s) => s.text));
  for (const [i, s] of stale.entries()) {
    const v = unit(vectors[i] ?? []);
    await upsertTaskEmbedding(prisma, { taskId: s.id, model: embedder.model, textHash: hashOf(s.text), vector: pgArray(v) });
  }
  return stale.length;
}

/** The tasks most similar to the text, with cosine similarity. */
export async function semanticCandidates(
  prisma: PrismaClient,
  embedder: Embedder,
  workspaceId: string,
  text: string,
): Promise<{ taskId: string; similarity: number }[]> {
  const [q] = await embedder.embed([text]);
  if (!q) return [];
  const rows = await similarTasks(prisma, { workspaceId, model: embedder.model, vector: pgArray(unit(q)), limit: SEMANTIC_CANDIDATES });
  return rows.map((r) => ({ taskId: r.task_id, similarity: Number(r.similarity) }));
}
