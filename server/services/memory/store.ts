// Writing memory: evidence, versions in chains, provenance links, summary sentences and profile
// snapshots. Everything here runs inside the caller's transaction.
import type { Tx } from '../../db/client.ts';
import type { Prisma } from '../../db/generated/client.ts';
import { lockMemory } from '../../store/memory/memories.ts';
import { contentFor, normalizeValue, textHash, valueHash, type Candidate, type SourceKind } from './extractor.ts';

export type EvidenceRow = { id: string; workspaceId: string; userId: string; taskId: string | null; kind: SourceKind; text: string; occurredAt: Date };

export function scopeKeyOf(c: { scope: string }, ev: { userId: string; taskId: string | null }): string {
  if (c.scope === 'WORKSPACE') return 'workspace';
  if (c.scope === 'TASK' && ev.taskId) return `task:${ev.taskId}`;
  return `user:${ev.userId}`;
}

/** Stores a source as evidence (once per message). */
export async function recordEvidence(
  tx: Tx,
  e: { workspaceId: string; userId: string; taskId?: string | null; messageId?: string | null; kind: SourceKind; text: string; occurredAt?: Date },
) {
  if (e.messageId) {
    const existing = await tx.memoryEvidence.findUnique({ where: { messageId: e.messageId } });
    if (existing) return existing;
  }
  return tx.memoryEvidence.create({
    data: {
      workspaceId: e.workspaceId,
      userId: e.userId,
      taskId: e.taskId ?? null,
      messageId: e.messageId ?? null,
      kind: e.kind,
      text: e.text,
      contentHash: textHash(e.text),
      occurredAt: e.occurredAt ?? new Date(),
    },
  });
}

const splitValues = (v: string) =>
  v
    .split(/\s*(?:,|\band\b|&|\bwith\b|\bund\b)\s*/i)
    .map((x) => x.trim())
    .filter(Boolean);

/** The union of two list values ("navy" + "cream white" → "navy and cream white"). */
export function mergeValues(prev: string, add: string): string {
  const out: string[] = [];
  for (const v of [...splitValues(prev), ...splitValues(add)]) if (!out.some((o) => normalizeValue(o) === normalizeValue(v))) out.push(v);
  return out.length <= 1 ? (out[0] ?? '') : `${out.slice(0, -1).join(', ')} and ${out.at(-1)}`;
}

export type Applied = { versionId: string; memoryId: string; effect: 'CREATED' | 'SUPERSEDED_PREVIOUS' | 'REFINED' | 'CONFIRMED' | 'SUPPRESSED' };

/**
 * Applies one validated candidate from one piece of evidence to its chain:
 * same value as the version in effect at that time → CONFIRM link, no new version;
 * `add` with a version in effect → a REFINE version merging both (derivedFrom the previous);
 * otherwise a new version (ORIGIN); then the chain's validity intervals are recomputed.
 */
export async function applyCandidate(tx: Tx, ev: EvidenceRow, c: Candidate): Promise<Applied | null> {
  const scopeKey = scopeKeyOf(c, ev);
  const origin = c.origin;
  // A forgotten memory value is not re-learnt from evidence older than the forgetting.
  const tomb = await tx.memoryTombstone.findUnique({ where: { workspaceId_userId_hash: { workspaceId: ev.workspaceId, userId: ev.userId, hash: valueHash(c.subjectKey, c.value) } } });
  if (tomb && (tomb.createdAt >= ev.occurredAt || origin === 'INFERRED')) return null;
  const memory = await tx.memory.upsert({
    where: { workspaceId_scopeKey_subjectKey_origin: { workspaceId: ev.workspaceId, scopeKey, subjectKey: c.subjectKey, origin } },
    create: {
      workspaceId: ev.workspaceId,
      userId: ev.userId,
      taskId: c.scope === 'TASK' ? ev.taskId : null,
      scope: c.scope === 'TASK' && !ev.taskId ? 'USER' : c.scope,
      scopeKey,
      kind: c.kind,
      subjectKey: c.subjectKey,
      origin,
    },
    update: {},
  });
  // Serialise writers of one chain.
  await lockMemory(tx, memory.id);
  const prev = await tx.memoryVersion.findFirst({
    where: { memoryId: memory.id, status: { not: 'FORGOTTEN' }, validFrom: { lte: ev.occurredAt } },
    orderBy: [{ validFrom: 'desc' }, { number: 'desc' }],
  });
  const last = await tx.memoryVersion.findFirst({ where: { memoryId: memory.id }, orderBy: { number: 'desc' }, select: { number: true } });
  const number = (last?.number ?? 0) + 1;
  if (prev && normalizeValue(prev.value) === normalizeValue(c.mode === 'add' ? mergeValues(prev.value, c.value) : c.value)) {
    await tx.memoryLink.upsert({
      where: { versionId_evidenceId: { versionId: prev.id, evidenceId: ev.id } },
      create: { versionId: prev.id, evidenceId: ev.id, role: 'CONFIRM' },
      update: {},
    });
    await tx.memoryVersion.update({ where: { id: prev.id }, data: { confidence: Math.min(1, prev.confidence + 0.05) } });
    return { versionId: prev.id, memoryId: memory.id, effect: 'CONFIRMED' };
  }
  const refine = c.mode === 'add' && prev;
  const value = refine ? mergeValues(prev.value, c.value) : c.value;
  // A date in the wording ("since April", "last spring") starts the version then: never after the
  // message, and never before the version the message found in effect began (that one was said to
  // hold then).
  let validFrom = ev.occurredAt;
  if (c.validFrom && c.validFrom.getTime() < ev.occurredAt.getTime()) validFrom = prev && prev.validFrom.getTime() >= c.validFrom.getTime() ? new Date(prev.validFrom.getTime() + 1) : c.validFrom;
  const version = await tx.memoryVersion.create({
    data: {
      memoryId: memory.id,
      workspaceId: ev.workspaceId,
      number,
      value,
      content: contentFor(c.subjectKey, value),
      origin,
      confidence: c.confidence,
      validFrom,
      derivedFromId: refine ? prev.id : null,
      links: { create: { evidenceId: ev.id, role: refine ? 'REFINE' : 'ORIGIN' } },
    },
  });
  await normalizeChain(tx, memory.id);
  return { versionId: version.id, memoryId: memory.id, effect: refine ? 'REFINED' : prev ? 'SUPERSEDED_PREVIOUS' : 'CREATED' };
}

/**
 * Validity of a chain from its live (not forgotten) versions in time order: each is valid until
 * the next one starts; the last is CURRENT. Undoes a supersession whose successor was forgotten.
 */
export async function normalizeChain(tx: Tx, memoryId: string): Promise<void> {
  const live = await tx.memoryVersion.findMany({ where: { memoryId, status: { not: 'FORGOTTEN' } }, orderBy: [{ validFrom: 'asc' }, { number: 'asc' }] });
  for (let i = 0; i < live.length; i++) {
    const v = live[i]!;
    const next = live[i + 1];
    const status = next ? 'SUPERSEDED' : 'CURRENT';
    const validTo = next ? next.validFrom : null;
    if (v.status !== status || (v.validTo?.getTime() ?? null) !== (validTo?.getTime() ?? null)) {
      await tx.memoryVersion.update({ where: { id: v.id }, data: { status, validTo } });
    }
  }
}

/** Adds one sentence per new or refined version to the summary of the phase it happened in. */
export async function addSummarySentence(tx: Tx, ev: EvidenceRow, a: Applied): Promise<void> {
  if (a.effect === 'CONFIRMED' || a.effect === 'SUPPRESSED') return;
  const v = await tx.memoryVersion.findUniqueOrThrow({ where: { id: a.versionId }, include: { links: true } });
  const phaseKey = `${ev.taskId ? `task:${ev.taskId}` : 'thread'}:${ev.occurredAt.toISOString().slice(0, 10)}`;
  const summary = await tx.memorySummary.upsert({
    where: { workspaceId_userId_phaseKey: { workspaceId: ev.workspaceId, userId: ev.userId, phaseKey } },
    create: { workspaceId: ev.workspaceId, userId: ev.userId, phaseKey },
    update: { updatedAt: new Date() },
  });
  const verb = a.effect === 'REFINED' ? 'refined' : a.effect === 'SUPERSEDED_PREVIOUS' ? 'updated' : 'noted';
  await tx.memorySummarySentence.upsert({
    where: { summaryId_versionId: { summaryId: summary.id, versionId: v.id } },
    create: {
      summaryId: summary.id,
      versionId: v.id,
      evidenceIds: [...new Set([...v.links.map((l) => l.evidenceId), ev.id])],
      text: `${v.origin === 'INFERRED' ? 'It seemed that the user' : 'The user'} ${verb}: ${v.content}.`,
    },
    update: {},
  });
}

const PROFILE_KINDS = ['PREFERENCE', 'FACT', 'BRAND_RULE', 'WORKFLOW_HABIT'] as const;
export const PROFILE_MAX_ENTRIES = 12;

export type ProfileEntry = { versionId: string; kind: string; subjectKey: string; text: string };

/**
 * Rebuilds a user's profile from the current stated memories (user and workspace scope, most
 * confident first, at most 12). Writes a new snapshot version when the entries changed, or always
 * when `bump` (after forgetting, so no cached prefix of the old snapshot is reused).
 */
export async function rebuildProfile(tx: Tx, workspaceId: string, userId: string, bump = false): Promise<number> {
  const rows = await tx.memoryVersion.findMany({
    where: {
      workspaceId,
      status: 'CURRENT',
      origin: 'USER_STATED',
      memory: { kind: { in: [...PROFILE_KINDS] }, OR: [{ scope: 'WORKSPACE' }, { scope: 'USER', userId }] },
    },
    include: { memory: true },
    orderBy: [{ confidence: 'desc' }, { validFrom: 'desc' }],
    take: PROFILE_MAX_ENTRIES,
  });
  const entries: ProfileEntry[] = rows
    .map((r) => ({ versionId: r.id, kind: r.memory.kind, subjectKey: r.memory.subjectKey, text: r.content }))
    .sort((a, b) => a.subjectKey.localeCompare(b.subjectKey));
  const latest = await tx.memoryProfile.findFirst({ where: { workspaceId, userId }, orderBy: { version: 'desc' } });
  const text = entries.map((e) => `- ${e.text}`).join('\n');
  if (latest && !bump && JSON.stringify(latest.entries) === JSON.stringify(entries)) return latest.version;
  const version = (latest?.version ?? 0) + 1;
  await tx.memoryProfile.create({ data: { workspaceId, userId, version, entries: entries as unknown as Prisma.InputJsonValue, text } });
  return version;
}
