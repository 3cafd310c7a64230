// Retrieval for the worker, the router and the API: structured filters (kind, scope, subject, time)
// first, full-text (tsvector) and embeddings (when configured) as ranking within those filters,
// always with citations to the evidence. Scope isolation is part of every query: workspace rows of
// this workspace, user rows of this user, task rows of this task — nothing else can match.
import type { PrismaClient } from '../../db/client.ts';
import type { Embedder } from '../../routing/embeddings.ts';

export type MemoryQuery = {
  workspaceId: string;
  userId: string;
  taskId?: string | null;
  kinds?: string[];
  scopes?: string[];
  /** Exact subject key, or a prefix ending in "." (e.g. "preference."). */
  subject?: string;
  /** Free text, matched by full-text search (and embeddings when configured). */
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

type Row = {
  memory_id: string;
  version_id: string;
  kind: string;
  scope: string;
  subject_key: string;
  origin: string;
  content: string;
  value: string;
  confidence: number;
  valid_from: Date;
  valid_to: Date | null;
  score: number;
};

export async function retrieveMemories(prisma: PrismaClient, q: MemoryQuery, embedder?: Embedder | null): Promise<RetrievedMemory[]> {
  const params: unknown[] = [q.workspaceId, q.userId, q.taskId ?? null];
  const where: string[] = [
    `m.workspace_id = $1::uuid`,
    `(m.scope = 'WORKSPACE' OR (m.scope = 'USER' AND m.user_id = $2::uuid) OR (m.scope = 'TASK' AND m.task_id = $3::uuid))`,
    `v.status <> 'FORGOTTEN'`,
  ];
  if (q.asOf) {
    params.push(q.asOf);
    where.push(`v.valid_from <= $${params.length} AND (v.valid_to IS NULL OR v.valid_to > $${params.length})`);
  } else where.push(`v.status = 'CURRENT'`);
  if (q.kinds?.length) {
    params.push(q.kinds);
    where.push(`m.kind::text = ANY($${params.length}::text[])`);
  }
  if (q.scopes?.length) {
    params.push(q.scopes);
    where.push(`m.scope::text = ANY($${params.length}::text[])`);
  }
  if (q.subject) {
    params.push(q.subject.endsWith('.') ? `${q.subject}%` : q.subject);
    where.push(q.subject.endsWith('.') ? `m.subject_key LIKE $${params.length}` : `m.subject_key = $${params.length}`);
  }
  let score = '0::float8';
  const words = (q.text ?? '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 2);
  if (words.length) {
    params.push(words.join(' | '));
    score = `ts_rank(v.search_tsv, to_tsquery('simple', $${params.length}))::float8`;
    // With a subject the text only ranks; without one it must match.
    if (!embedder && !q.subject) where.push(`v.search_tsv @@ to_tsquery('simple', $${params.length})`);
  }
  params.push(Math.min(q.limit ?? 20, 100) * 2);
  const rows = await prisma.$queryRawUnsafe<Row[]>(
    `SELECT m.id AS memory_id, v.id AS version_id, m.kind::text AS kind, m.scope::text AS scope, m.subject_key, v.origin::text AS origin,
            v.content, v.value, v.confidence, v.valid_from, v.valid_to, ${score} AS score
       FROM memory_versions v JOIN memories m ON m.id = v.memory_id
      WHERE ${where.join(' AND ')}
      ORDER BY score DESC, v.confidence DESC, v.valid_from DESC
      LIMIT $${params.length}`,
    ...params,
  );
  let scored = rows.map((r) => ({ ...r, score: Number(r.score) }));
  if (words.length && embedder && scored.length) {
    // Embeddings re-rank within the structured filters; rows without a text or vector match drop.
    const [qv] = await embedder.embed([q.text!]);
    const n = Math.sqrt(qv!.reduce((s, x) => s + x * x, 0)) || 1;
    const vecs = await prisma.memoryEmbedding.findMany({ where: { versionId: { in: scored.map((r) => r.version_id) } } });
    const byId = new Map(vecs.map((v) => [v.versionId, v.vector]));
    scored = scored
      .map((r) => {
        const v = byId.get(r.version_id);
        const cos = v ? v.reduce((s, x, i) => s + x * (qv![i]! / n), 0) : 0;
        return { ...r, score: r.score + Math.max(0, cos) };
      })
      .filter((r) => r.score > 0.3)
      .sort((a, b) => b.score - a.score);
  }
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

/** A question about the user mapped to a structured query (used by the evaluation and tools). */
export function questionToQuery(question: string): { subject?: string; kinds?: string[]; text?: string } {
  const q = question.toLowerCase();
  if (/\b(where|which city)\b.*\b(live|living|based|wohne)\b|\bwo wohne\b/.test(q)) return { subject: 'user.residence' };
  if (/\bmy name\b|\bwhat am i called\b/.test(q)) return { subject: 'user.name' };
  if (/\bwhere do i work|\bwhat do i do for work|\bmy job\b/.test(q)) return { subject: 'user.work' };
  if (/\bbrand\b.*\bcolou?r|\bbrand palette\b/.test(q)) return { subject: 'brand.colors' };
  if (/\bbrand\b.*\b(font|typeface)\b/.test(q)) return { subject: 'brand.font' };
  if (/\bbrand\b.*\b(tone|voice)\b/.test(q)) return { subject: 'brand.tone' };
  if (/\bavoid|\bdislike|\bdon't like\b/.test(q)) return { subject: 'avoid.', text: question };
  if (/\balways\b|\bhabit|\bworkflow\b|\busually do\b/.test(q)) return { subject: 'habit.', text: question };
  if (/\bprefer|\bfavou?rite|\blike\b/.test(q)) return { subject: 'preference.', text: question };
  return { text: question };
}
