// The router's compact task index: the most recently active tasks plus retrieval (full-text rank
// and trigram similarity in PostgreSQL, and embeddings when configured) for older ones. Its size is
// bounded by INDEX_MAX entries of truncated fields, whatever the number of tasks.
import type { PrismaClient } from '../db/client.ts';
import { matchingTasks, recentTasks, tasksByIds, type IndexedTaskRow } from '../store/task-index.ts';
import { refreshEmbeddings, semanticCandidates, type Embedder } from './embeddings.ts';
import { INDEX_FIELD_CHARS, INDEX_RECENT, INDEX_RETRIEVED, type TaskIndexEntry } from './types.ts';

type TaskRow = {
  id: string;
  title: string;
  goal: string;
  summary: string;
  status: string;
  kind: 'PERSISTENT' | 'LIGHTWEIGHT';
  language: string | null;
  lastActivityAt: Date;
};

const cut = (s: string) => (s.length > INDEX_FIELD_CHARS ? s.slice(0, INDEX_FIELD_CHARS - 1) + '…' : s);

export async function loadTaskIndex(
  prisma: PrismaClient,
  workspaceId: string,
  text: string,
  embedder: Embedder | null = null,
): Promise<TaskIndexEntry[]> {
  const fieldChars = INDEX_FIELD_CHARS;
  const recent = await recentTasks(prisma, { workspaceId, fieldChars, limit: INDEX_RECENT });
  const retrieved = text.trim() ? await matchingTasks(prisma, { workspaceId, text: text.slice(0, 500), fieldChars, limit: INDEX_RETRIEVED }) : [];
  const byId = new Map<string, IndexedTaskRow>();
  for (const r of [...retrieved, ...recent]) if (!byId.has(r.id)) byId.set(r.id, r);
  // Semantic candidates: tasks the words alone would not find (only with an embedding model).
  const semantic = new Map<string, number>();
  if (embedder && text.trim()) {
    await refreshEmbeddings(prisma, embedder, workspaceId);
    for (const c of await semanticCandidates(prisma, embedder, workspaceId, text)) semantic.set(c.taskId, c.similarity);
    const missing = [...semantic.keys()].filter((id) => !byId.has(id));
    if (missing.length) {
      const extra = await tasksByIds(prisma, { ids: missing, fieldChars });
      for (const r of extra) byId.set(r.id, r);
    }
  }
  const rows = [...byId.values()];
  const refs = await prisma.taskObjectRef.findMany({ where: { taskId: { in: rows.map((r) => r.id) } }, select: { taskId: true, objectId: true } });
  return rows.map((r) => ({
    ...toIndexEntry(r),
    objects: refs.filter((x) => x.taskId === r.id).slice(0, 5).map((x) => x.objectId),
    retrieval: Number(r.retrieval) || 0,
    ...(semantic.has(r.id) ? { semantic: semantic.get(r.id)! } : {}),
  }));
}

/** A task row as an index entry (fields truncated like the index query does). */
export function toIndexEntry(t: TaskRow): TaskIndexEntry {
  return {
    taskId: t.id,
    title: cut(t.title),
    goal: t.goal.slice(0, INDEX_FIELD_CHARS),
    summary: t.summary.slice(0, INDEX_FIELD_CHARS),
    status: t.status,
    kind: t.kind,
    language: t.language,
    lastActivityAt: t.lastActivityAt,
    objects: [],
    retrieval: 0,
  };
}
