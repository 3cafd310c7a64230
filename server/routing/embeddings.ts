// Semantic retrieval for the router when an embedding model is configured: it finds older tasks
// that share no words with the message (another language, other wording). Vectors are stored
// L2-normalised per task and refreshed lazily when the task's text changes; similarity is a dot
// product computed in PostgreSQL over the workspace's tasks (no extension needed).
import { createHash } from 'node:crypto';
import { OpenAIEmbeddings } from '@langchain/openai';
import type { PrismaClient } from '../db/client.ts';

export type Embedder = { model: string; embed(texts: string[]): Promise<number[][]> };

export const SEMANTIC_CANDIDATES = 5;
const REFRESH_BATCH = 64;

export function createEmbedder(opts: { apiKey?: string; baseUrl?: string; model?: string }): Embedder | null {
  if (!opts.apiKey?.trim() && !opts.baseUrl?.trim()) return null;
  const model = opts.model ?? 'text-embedding-3-small';
  const client = new OpenAIEmbeddings({
    model,
    apiKey: opts.apiKey?.trim() || 'not-needed',
    configuration: opts.baseUrl ? { baseURL: opts.baseUrl } : undefined,
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
  const stale = await prisma.$queryRawUnsafe<{ id: string; text: string }[]>(
    `SELECT t.id, t.search_text AS text FROM tasks t
       LEFT JOIN task_embeddings e ON e.task_id = t.id
      WHERE t.workspace_id = $1::uuid AND t.archived_at IS NULL
        AND (e.task_id IS NULL OR e.model <> $2 OR e.text_hash <> left(encode(sha256(convert_to(t.search_text, 'UTF8')), 'hex'), 32))
      ORDER BY t.last_activity_at DESC LIMIT ${REFRESH_BATCH}`,
    workspaceId,
    embedder.model,
  );
  if (!stale.length) return 0;
  const vectors = await embedder.embed(stale.map((s) => s.text));
  for (const [i, s] of stale.entries()) {
    const v = unit(vectors[i] ?? []);
    await prisma.$executeRawUnsafe(
      `INSERT INTO task_embeddings (task_id, model, text_hash, vector, updated_at) VALUES ($1::uuid, $2, $3, $4::real[], now())
       ON CONFLICT (task_id) DO UPDATE SET model = EXCLUDED.model, text_hash = EXCLUDED.text_hash, vector = EXCLUDED.vector, updated_at = now()`,
      s.id,
      embedder.model,
      hashOf(s.text),
      pgArray(v),
    );
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
  const rows = await prisma.$queryRawUnsafe<{ task_id: string; similarity: number }[]>(
    `SELECT e.task_id, (SELECT sum(a * b) FROM unnest(e.vector, $3::real[]) AS x(a, b))::float8 AS similarity
       FROM task_embeddings e JOIN tasks t ON t.id = e.task_id
      WHERE t.workspace_id = $1::uuid AND t.archived_at IS NULL AND t.merged_into_id IS NULL AND e.model = $2
      ORDER BY similarity DESC LIMIT ${SEMANTIC_CANDIDATES}`,
    workspaceId,
    embedder.model,
    pgArray(unit(q)),
  );
  return rows.map((r) => ({ taskId: r.task_id, similarity: Number(r.similarity) }));
}
