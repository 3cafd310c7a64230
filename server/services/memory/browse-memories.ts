// Browsing memory through the API: memories with their current version, chains with provenance,
// what used them, and the profile. Scope isolation is part of every query: the workspace's
// workspace and task memories, and only the viewer's own user memories. A memory forgotten entirely
// (no live version) is not listed and does not load.
import { requireWorkspace, visibleWorkspaceIds } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { PrismaClient } from '../../db/client.ts';
import type { Memory, MemoryEvidence, MemoryLink, MemoryVersion } from '../../db/generated/client.ts';
import { memoryIdsPage } from '../../store/memory/memories.ts';
import { usesOfMemories } from '../../store/memory/uses.ts';
import type { Deps } from '../deps.ts';
import { decodeKeyset } from '../keyset.ts';

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
  // Newest first: "after" walks towards older memories, "before" towards newer ones. A stated
  // memory wins over an inference on the same subject and scope (as at retrieval) unless
  // superseded ones are asked for.
  const ids = await memoryIdsPage(deps.prisma, {
    workspaceId: f.workspaceId,
    viewerId: viewer.userId,
    kind: f.kind,
    scope: f.scope,
    subject: f.subject,
    words: f.query ? words(f.query) : [],
    includeSuperseded: !!f.includeSuperseded,
    after: page.after ? decodeKeyset(page.after) : null,
    before: page.before ? decodeKeyset(page.before, 'before') : null,
    limit: page.limit,
    ascending: page.inverted,
  });
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
  const rows = await usesOfMemories(prisma, [...memoryIds]);
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
