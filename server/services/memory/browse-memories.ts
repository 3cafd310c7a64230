// Browsing memory through the API: memories with their current version, chains with provenance,
// what used them, and the profile. Scope isolation is part of every query: the workspace's
// workspace and task memories, and only the viewer's own user memories. A memory forgotten entirely
// (no live version) is not listed and does not load.
import { requireWorkspace, visibleWorkspaceIds } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { PrismaClient } from '../../db/client.ts';
import type { Memory, MemoryEvidence, MemoryLink, MemoryVersion } from '../../db/generated/client.ts';
import type { Deps } from '../deps.ts';
import { afterKeyset, beforeKeyset, decodeKeyset } from '../keyset.ts';

export type MemoryView = Memory & { current: MemoryVersion };
export type VersionView = MemoryVersion & { links: (MemoryLink & { evidence: MemoryEvidence })[] };
export type MemoryFilter = {
  workspaceId: string;
  kind?: string | null;
  scope?: string | null;
  /** Exact subject key, or a prefix ending in "." (e.g. "preference."). */
  subject?: string | null;
  /** Words that must all occur (as word prefixes) in the memory's content. */
  query?: string | null;
  /** Also inferences shadowed by a stated memory, and matches on superseded versions. */
  includeSuperseded?: boolean | null;
};
export type Page = { after?: string | null; before?: string | null; limit: number; inverted: boolean };

const words = (q: string) =>
  q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, 12);

/** Memories of a workspace the viewer may see, newest first, keyset-paged over (createdAt, id). */
export async function listMemories(deps: Deps, viewer: Viewer, f: MemoryFilter, page: Page): Promise<MemoryView[]> {
  requireWorkspace(viewer, f.workspaceId, 'read');
  const params: unknown[] = [f.workspaceId, viewer.userId];
  const p = (v: unknown) => `$${params.push(v)}`;
  const where = [`m.workspace_id = $1::uuid`, `(m.scope <> 'USER' OR m.user_id = $2::uuid)`];
  const versionWhere = [`v.memory_id = m.id`, f.includeSuperseded ? `v.status <> 'FORGOTTEN'` : `v.status = 'CURRENT'`];
  if (f.kind) where.push(`m.kind::text = ${p(f.kind)}`);
  if (f.scope) where.push(`m.scope::text = ${p(f.scope)}`);
  if (f.subject) where.push(f.subject.endsWith('.') ? `m.subject_key LIKE ${p(`${f.subject.replace(/[\\%_]/g, '\\$&')}%`)}` : `m.subject_key = ${p(f.subject)}`);
  const ws = f.query ? words(f.query) : [];
  if (ws.length) versionWhere.push(`v.search_tsv @@ to_tsquery('simple', ${p(ws.map((w) => `${w.replace(/'/g, "''")}:*`).join(' & '))})`);
  where.push(`EXISTS (SELECT 1 FROM memory_versions v WHERE ${versionWhere.join(' AND ')})`);
  if (!f.includeSuperseded) {
    // A stated memory wins over an inference on the same subject and scope (as at retrieval).
    where.push(`NOT (m.origin = 'INFERRED' AND EXISTS (
      SELECT 1 FROM memories s JOIN memory_versions sv ON sv.memory_id = s.id AND sv.status = 'CURRENT'
       WHERE s.workspace_id = m.workspace_id AND s.scope_key = m.scope_key AND s.subject_key = m.subject_key AND s.origin = 'USER_STATED'))`);
  }
  // Newest first: "after" walks towards older memories, "before" towards newer ones.
  if (page.after) {
    const c = decodeKeyset(page.after);
    where.push(`(m.created_at, m.id) < (${p(c.createdAt)}::timestamptz, ${p(c.id)}::uuid)`);
  }
  if (page.before) {
    const c = decodeKeyset(page.before, 'before');
    where.push(`(m.created_at, m.id) > (${p(c.createdAt)}::timestamptz, ${p(c.id)}::uuid)`);
  }
  const dir = page.inverted ? 'ASC' : 'DESC';
  const ids = await deps.prisma.$queryRawUnsafe<{ id: string }[]>(
    `SELECT m.id FROM memories m WHERE ${where.join(' AND ')} ORDER BY m.created_at ${dir}, m.id ${dir} LIMIT ${p(page.limit)}`,
    ...params,
  );
  const rows = await withCurrent(deps.prisma, ids.map((r) => r.id));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((r) => byId.get(r.id)).filter((r): r is MemoryView => !!r);
}

async function withCurrent(prisma: PrismaClient, ids: string[], extra: object = {}): Promise<MemoryView[]> {
  if (!ids.length) return [];
  const rows = await prisma.memory.findMany({ where: { id: { in: ids }, ...extra }, include: { versions: { where: { status: 'CURRENT' }, take: 1 } } });
  return rows.flatMap(({ versions, ...m }) => (versions[0] ? [{ ...m, current: versions[0] }] : []));
}

/** Memories by id for node(id): null for anything the viewer may not see or that was forgotten. */
export async function loadMemories(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(MemoryView | null)[]> {
  const valid = ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  const rows = await withCurrent(deps.prisma, valid, {
    workspaceId: { in: visibleWorkspaceIds(viewer) },
    OR: [{ scope: { not: 'USER' } }, { userId: viewer.userId }],
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** Evidence by id for node(id): only the viewer's own sources. */
export async function loadEvidence(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(MemoryEvidence | null)[]> {
  const valid = ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  const rows = await deps.prisma.memoryEvidence.findMany({ where: { id: { in: valid }, workspaceId: { in: visibleWorkspaceIds(viewer) }, userId: viewer.userId } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** The chains of some memories (all versions, oldest first, with their links and evidence). */
export async function versionsOf(prisma: PrismaClient, memoryIds: readonly string[]): Promise<VersionView[][]> {
  const rows = await prisma.memoryVersion.findMany({
    where: { memoryId: { in: [...memoryIds] } },
    include: { links: { include: { evidence: true }, orderBy: { createdAt: 'asc' } } },
    orderBy: { number: 'asc' },
  });
  return memoryIds.map((id) => rows.filter((r) => r.memoryId === id));
}

export type MemoryUseView = { taskId: string; stepOrdinal: number; stepId: string | null; turnNumber: number | null; stepIndex: number | null; versionNumber: number; usedAt: Date };

/** Where the versions of some memories were used: one entry per (task, step, version), newest first. */
export async function usesOf(prisma: PrismaClient, memoryIds: readonly string[]): Promise<MemoryUseView[][]> {
  const rows = await prisma.$queryRawUnsafe<{ memory_id: string; task_id: string; step_ordinal: number; step_id: string | null; turn_number: number | null; step_index: number | null; number: number; used_at: Date }[]>(
    `WITH steps_ordered AS (
       SELECT s.id, s.task_id, t.number AS turn_number, s.index AS step_index, (row_number() OVER (PARTITION BY s.task_id ORDER BY t.number, s.index) - 1)::int AS ordinal
         FROM steps s JOIN turns t ON t.id = s.turn_id
        WHERE s.task_id IN (SELECT u.task_id FROM memory_uses u JOIN memory_versions v ON v.id = u.version_id WHERE v.memory_id = ANY($1::uuid[])))
     SELECT v.memory_id, u.task_id, u.step_ordinal, so.id AS step_id, so.turn_number, so.step_index, v.number, min(u.created_at) AS used_at
       FROM memory_uses u JOIN memory_versions v ON v.id = u.version_id
       LEFT JOIN steps_ordered so ON so.task_id = u.task_id AND so.ordinal = u.step_ordinal
      WHERE v.memory_id = ANY($1::uuid[])
      GROUP BY v.memory_id, u.task_id, u.step_ordinal, so.id, so.turn_number, so.step_index, v.number
      ORDER BY used_at DESC`,
    [...memoryIds],
  );
  return memoryIds.map((id) =>
    rows
      .filter((r) => r.memory_id === id)
      .map((r) => ({ taskId: r.task_id, stepOrdinal: r.step_ordinal, stepId: r.step_id, turnNumber: r.turn_number, stepIndex: r.step_index, versionNumber: r.number, usedAt: r.used_at })),
  );
}

export type ProfileView = { version: number; text: string; entries: { versionId: string; kind: string; subjectKey: string; text: string }[]; createdAt: Date };

/** The viewer's current profile snapshot in a workspace (null before anything was remembered). */
export async function memoryProfile(deps: Deps, viewer: Viewer, workspaceId: string): Promise<ProfileView | null> {
  requireWorkspace(viewer, workspaceId, 'read');
  const row = await deps.prisma.memoryProfile.findFirst({ where: { workspaceId, userId: viewer.userId }, orderBy: { version: 'desc' } });
  if (!row) return null;
  return { version: row.version, text: row.text, entries: (row.entries as ProfileView['entries']) ?? [], createdAt: row.createdAt };
}
