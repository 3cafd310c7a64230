// The router's compact task index: the most recently active tasks — live and finished — plus
// retrieval (full-text rank and trigram similarity in PostgreSQL, the names of the tasks' objects,
// and embeddings when configured) for older ones, and the recently archived tasks with their
// state. Each entry carries what the router reads: title, brief, summary, object names, results
// and dates. Its size is bounded by INDEX_MAX entries of truncated fields, whatever the number of
// tasks.
import type { PrismaClient } from '../db/client.ts';
import { matchingTasks, recentlyArchivedTasks, recentTasks, taskDetails, tasksByIds, tasksByObjectNames, type IndexedTaskRow } from '../store/task-index.ts';
import { refreshEmbeddings, semanticCandidates, type Embedder } from './embeddings.ts';
import {
  ARCHIVED_INDEX_DAYS,
  INDEX_ARCHIVED,
  INDEX_FIELD_CHARS,
  INDEX_NAME_CHARS,
  INDEX_NAMES,
  INDEX_RECENT,
  INDEX_RETRIEVED,
  type TaskIndexEntry,
} from './types.ts';

type TaskRow = {
  id: string;
  title: string;
  goal: string;
  summary: string;
  status: string;
  kind: 'PERSISTENT' | 'LIGHTWEIGHT';
  language: string | null;
  lastActivityAt: Date;
  createdAt?: Date;
  endedAt?: Date | null;
  archivedAt?: Date | null;
};

const cut = (s: string) => (s.length > INDEX_FIELD_CHARS ? s.slice(0, INDEX_FIELD_CHARS - 1) + '…' : s);

export async function loadTaskIndex(
  prisma: PrismaClient,
  workspaceId: string,
  text: string,
  embedder: Embedder | null = null,
  now = new Date(),
): Promise<TaskIndexEntry[]> {
  const fieldChars = INDEX_FIELD_CHARS;
  const recent = await recentTasks(prisma, { workspaceId, fieldChars, limit: INDEX_RECENT });
  const query = text.slice(0, 500);
  const retrieved = text.trim() ? await matchingTasks(prisma, { workspaceId, text: query, fieldChars, limit: INDEX_RETRIEVED }) : [];
  // Tasks found by the names of their objects take the retrieval places the words left free.
  const byName = text.trim() ? await tasksByObjectNames(prisma, { workspaceId, text: query, fieldChars, limit: INDEX_RETRIEVED }) : [];
  const byId = new Map<string, IndexedTaskRow>();
  let found = 0;
  for (const r of [...retrieved, ...byName]) {
    if (byId.has(r.id) || found >= INDEX_RETRIEVED) continue;
    byId.set(r.id, r);
    found++;
  }
  for (const r of recent) if (!byId.has(r.id)) byId.set(r.id, r);
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
  const since = new Date(now.getTime() - ARCHIVED_INDEX_DAYS * 86_400_000);
  for (const r of await recentlyArchivedTasks(prisma, { workspaceId, fieldChars, since, limit: INDEX_ARCHIVED })) if (!byId.has(r.id)) byId.set(r.id, r);
  const rows = [...byId.values()];
  const details = rows.length ? await taskDetails(prisma, { taskIds: rows.map((r) => r.id), nameChars: INDEX_NAME_CHARS, limit: INDEX_NAMES }) : [];
  const namesOf = (id: string, kind: 'object' | 'result') => details.filter((d) => d.taskId === id && d.kind === kind).map((d) => d.name);
  return rows.map((r) => ({
    ...toIndexEntry(r),
    objects: namesOf(r.id, 'object'),
    results: namesOf(r.id, 'result'),
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
    ...(t.createdAt ? { createdAt: t.createdAt } : {}),
    endedAt: t.endedAt ?? null,
    archived: !!t.archivedAt,
    objects: [],
    results: [],
    retrieval: 0,
  };
}
