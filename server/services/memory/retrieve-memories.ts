// Retrieval for the worker, the router and the API: structured filters (kind, scope, subject, time)
// first, then relevance to a text (its subject named, or a word of its value shared; embeddings
// when configured) as the filter and ranking within those,
// always with citations to the evidence. Scope isolation is part of every query: workspace rows of
// this workspace, user rows of this user, task rows of this task — nothing else can match.
import type { PrismaClient } from '../../db/client.ts';
import type { Embedder } from '../../routing/embeddings.ts';
import { versionCandidates } from '../../store/memory/memories.ts';
import { contentWords, relevance } from './relevance.ts';

/** With a text and no subject, relevance is decided on at most this many candidates (newest, most confident first). */
const TEXT_CANDIDATES = 500;
/** Cosine similarity above which an embedding alone makes a memory relevant. */
const SEMANTIC_MIN = 0.3;

export type MemoryQuery = {
  workspaceId: string;
  userId: string;
  taskId?: string | null;
  kinds?: string[];
  scopes?: string[];
  /** Exact subject key, or a prefix ending in "." (e.g. "preference."). */
  subject?: string;
  /** Free text (a question, a task's title and goal): only relevant memories are returned (relevance.ts), best first. */
  text?: string;
  /** The versions valid at this time instead of the current ones. */
  asOf?: Date;
  limit?: number;
};

export type Citation = { evidenceId: string; role: string; kind: string; messageId: string | null; occurredAt: Date; excerpt: string };
export type RetrievedMemory = {
  memoryId: string;
  versionId: string;
  kind: string;
  scope: string;
  subjectKey: string;
  origin: string;
  content: string;
  value: string;
  confidence: number;
  validFrom: Date;
  validTo: Date | null;
  score: number;
  citations: Citation[];
};

export async function retrieveMemories(prisma: PrismaClient, q: MemoryQuery, embedder?: Embedder | null): Promise<RetrievedMemory[]> {
  // With a text, which memories are relevant is decided on the candidates of the structured filters
  // (relevance.ts): a memory whose subject the text names or whose value shares a word with it.
  // With a subject the text only ranks; without one it must be relevant, else nothing is returned.
  const terms = q.text ? contentWords(q.text) : new Set<string>();
  const rows = await versionCandidates(prisma, {
    workspaceId: q.workspaceId,
    userId: q.userId,
    taskId: q.taskId ?? null,
    kinds: q.kinds,
    scopes: q.scopes,
    subject: q.subject,
    asOf: q.asOf,
    limit: terms.size ? TEXT_CANDIDATES : Math.min(q.limit ?? 20, 100) * 2,
  });
  let scored = rows.map((r) => ({ ...r, ...(terms.size ? relevance(terms, { subjectKey: r.subject_key, value: r.value }) : { relevant: true, score: 0 }) }));
  if (terms.size && embedder && scored.length) {
    // Embeddings add to the lexical score within the structured filters; a row neither relevant
    // nor semantically close drops.
    const [qv] = await embedder.embed([q.text!]);
    const n = Math.sqrt(qv!.reduce((s, x) => s + x * x, 0)) || 1;
    const vecs = await prisma.memoryEmbedding.findMany({ where: { versionId: { in: scored.map((r) => r.version_id) } } });
    const byId = new Map(vecs.map((v) => [v.versionId, v.vector]));
    scored = scored.map((r) => {
      const v = byId.get(r.version_id);
      const cos = v ? v.reduce((s, x, i) => s + x * (qv![i]! / n), 0) : 0;
      return { ...r, relevant: r.relevant || cos > SEMANTIC_MIN, score: r.score + Math.max(0, cos) };
    });
  }
  if (terms.size && !q.subject) scored = scored.filter((r) => r.relevant);
  if (terms.size) scored.sort((a, b) => b.score - a.score);
  // A stated memory wins over an inference on the same subject and scope.
  const stated = new Set(scored.filter((r) => r.origin === 'USER_STATED').map((r) => `${r.scope}:${r.subject_key}`));
  scored = scored.filter((r) => r.origin === 'USER_STATED' || !stated.has(`${r.scope}:${r.subject_key}`)).slice(0, q.limit ?? 20);
  const links = await prisma.memoryLink.findMany({
    where: { versionId: { in: scored.map((r) => r.version_id) }, evidence: { status: 'ACTIVE' } },
    include: { evidence: true },
    orderBy: { createdAt: 'asc' },
  });
  return scored.map((r) => ({
    memoryId: r.memory_id,
    versionId: r.version_id,
    kind: r.kind,
    scope: r.scope,
    subjectKey: r.subject_key,
    origin: r.origin,
    content: r.content,
    value: r.value,
    confidence: r.confidence,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    score: r.score,
    citations: links
      .filter((l) => l.versionId === r.version_id)
      .map((l) => ({ evidenceId: l.evidenceId, role: l.role, kind: l.evidence.kind, messageId: l.evidence.messageId, occurredAt: l.evidence.occurredAt, excerpt: l.evidence.text.slice(0, 200) })),
  }));
}
