// Derivation-aware forgetting. Revoking evidence (or forgetting a memory):
//   1. revokes the evidence (its memory copy of the text is cleared; its hash stays as tombstone);
//   2. follows the links to every version resting on it (ORIGIN/REFINE) and every version merged
//      from those (derivedFrom), clears their content and marks them FORGOTTEN; CONFIRM links are
//      simply removed;
//   3. rebuilds each affected chain from the remaining valid evidence (so a supersession caused only
//      by the revoked evidence is undone, and a merged version is rebuilt from what remains);
//   4. deletes their summary sentences and embeddings (the full-text index is generated from the
//      content, so it is cleared with it), redacts profile snapshots that listed them and writes a
//      new profile version (cached prefixes are keyed by it);
//   5. redacts the stored model requests and replies of steps that used them (memory_uses) — later
//      contexts withhold those replies (worker-context.ts);
//   6. destroys the data keys that sealed what tasks derived with it in context, so decisions,
//      tool inputs, event payloads, checklists, job prompts and approvals read as withheld, and
//      rebuilds those tasks' summaries, search text and embeddings (store/sealing).
// Runs inside the caller's transaction (the approval's, or a test's).
import type { Db, Tx } from '../../db/client.ts';
import type { Prisma } from '../../db/generated/client.ts';
import { extractCandidates, validateCandidates, valueHash, type SourceKind } from './extractor.ts';
import { addSummarySentence, applyCandidate, normalizeChain, rebuildProfile, type EvidenceRow } from './store.ts';
import { lockWorkspaceEvidence } from '../../store/memory/evidence.ts';
import { deleteEmptySummaries, lockMemory } from '../../store/memory/memories.ts';
import { snapshotsListing } from '../../store/memory/profiles.ts';
import { stepOrdinals, stepsThatReadEvidence, withholdStepReplies } from '../../store/memory/uses.ts';
import { destroyKeysOf } from '../../store/sealing/keys.ts';
import { withholdRepliesNaming } from '../../store/memory/replies.ts';
import { rebuildDerivedOf } from '../../store/sealing/derived.ts';

export type ForgetOutcome = {
  alreadyForgotten: boolean;
  clearedVersions: number;
  rebuiltVersions: number;
  redactedSteps: number;
  profileVersions: number;
  /** Tasks whose derived content became unreadable (their data keys destroyed). */
  withheldTasks?: number;
};

export const WITHHELD_REPLY = '[withheld: this reply relied on memory the user asked to forget]';
/** What a thread reply to a forgotten message reads afterwards. */
export const FORGOTTEN_REPLY = '[removed: this reply repeated something you asked me to forget]';

/** Revokes one piece of evidence and everything derived from it. */
export async function forgetEvidenceNow(tx: Tx, p: { workspaceId: string; evidenceId: string }): Promise<ForgetOutcome> {
  const locked = await lockWorkspaceEvidence(tx, p.evidenceId, p.workspaceId);
  if (!locked.length) return { alreadyForgotten: true, clearedVersions: 0, rebuiltVersions: 0, redactedSteps: 0, profileVersions: 0 };
  const ev = await tx.memoryEvidence.findUniqueOrThrow({ where: { id: p.evidenceId } });
  if (ev.status === 'REVOKED') return { alreadyForgotten: true, clearedVersions: 0, rebuiltVersions: 0, redactedSteps: 0, profileVersions: 0 };
  await tx.memoryEvidence.update({ where: { id: ev.id }, data: { status: 'REVOKED', revokedAt: new Date(), text: '' } });
  await tx.memoryTombstone.upsert({
    where: { workspaceId_userId_hash: { workspaceId: ev.workspaceId, userId: ev.userId, hash: ev.contentHash } },
    create: { workspaceId: ev.workspaceId, userId: ev.userId, hash: ev.contentHash, kind: 'EVIDENCE' },
    update: {},
  });
  // The thread's replies to the forgotten message may quote it (an acknowledgement cites the words a
  // task took on, a remembered-fact reply the fact): they go with their source. The message itself is
  // chat history and stays, as the model replies that used a forgotten memory stay withheld.
  if (ev.messageId) {
    await tx.message.updateMany({
      where: { role: 'ASSISTANT', OR: [{ idempotencyKey: `reply:${ev.messageId}` }, { idempotencyKey: { startsWith: `reply:${ev.messageId}:` } }] },
      data: { text: FORGOTTEN_REPLY },
    });
  }
  const direct = await tx.memoryLink.findMany({ where: { evidenceId: ev.id, role: { in: ['ORIGIN', 'REFINE'] } }, select: { versionId: true } });
  await tx.memoryLink.deleteMany({ where: { evidenceId: ev.id, role: 'CONFIRM' } });
  return clearAndRebuild(tx, ev.workspaceId, direct.map((d) => d.versionId), { evidenceIds: [ev.id], rebuild: true });
}

/** Forgets a memory (all its versions). Its messages stay (they may support others); its correction notes are revoked. */
export async function forgetMemoryNow(tx: Tx, p: { workspaceId: string; memoryId: string }): Promise<ForgetOutcome> {
  const memory = await tx.memory.findFirst({ where: { id: p.memoryId, workspaceId: p.workspaceId } });
  if (!memory) return { alreadyForgotten: true, clearedVersions: 0, rebuiltVersions: 0, redactedSteps: 0, profileVersions: 0 };
  await lockMemory(tx, memory.id);
  const versions = await tx.memoryVersion.findMany({ where: { memoryId: memory.id, status: { not: 'FORGOTTEN' } } });
  if (!versions.length) return { alreadyForgotten: true, clearedVersions: 0, rebuiltVersions: 0, redactedSteps: 0, profileVersions: 0 };
  // Suppress re-learning these values from the evidence that exists now.
  for (const v of versions) {
    await tx.memoryTombstone.upsert({
      where: { workspaceId_userId_hash: { workspaceId: memory.workspaceId, userId: memory.userId, hash: valueHash(memory.subjectKey, v.value) } },
      create: { workspaceId: memory.workspaceId, userId: memory.userId, hash: valueHash(memory.subjectKey, v.value), kind: 'MEMORY' },
      update: {},
    });
  }
  // A correction note entered through the API exists only for this memory: it is revoked with it
  // (its text is memory's own copy of the forgotten value). Messages stay: they may support others.
  const notes = await tx.memoryEvidence.findMany({
    where: {
      kind: 'NOTE',
      status: 'ACTIVE',
      links: { some: { version: { memoryId: memory.id } } },
      NOT: { links: { some: { version: { memoryId: { not: memory.id }, status: { not: 'FORGOTTEN' } } } } },
    },
  });
  for (const note of notes) {
    await tx.memoryEvidence.update({ where: { id: note.id }, data: { status: 'REVOKED', revokedAt: new Date(), text: '' } });
    await tx.memoryTombstone.upsert({
      where: { workspaceId_userId_hash: { workspaceId: note.workspaceId, userId: note.userId, hash: note.contentHash } },
      create: { workspaceId: note.workspaceId, userId: note.userId, hash: note.contentHash, kind: 'EVIDENCE' },
      update: {},
    });
  }
  return clearAndRebuild(
    tx,
    memory.workspaceId,
    versions.map((v) => v.id),
    { evidenceIds: [], rebuild: false },
  );
}

async function clearAndRebuild(tx: Tx, workspaceId: string, seeds: string[], o: { evidenceIds: string[]; rebuild: boolean }): Promise<ForgetOutcome> {
  // Closure over merges: a version derived from a cleared version carries its content.
  const cleared = new Set(seeds);
  for (let frontier = [...seeds]; frontier.length; ) {
    const next = await tx.memoryVersion.findMany({ where: { derivedFromId: { in: frontier }, id: { notIn: [...cleared] } }, select: { id: true } });
    frontier = next.map((n) => n.id);
    for (const id of frontier) cleared.add(id);
  }
  const ids = [...cleared];
  const versions = await tx.memoryVersion.findMany({ where: { id: { in: ids } }, include: { memory: true, links: true } });
  // Evidence that supported the cleared versions and is still valid: the material for rebuilding.
  const remaining = new Map<string, Set<string>>(); // memoryId -> evidence ids
  for (const v of versions) {
    for (const l of v.links) {
      if (o.evidenceIds.includes(l.evidenceId)) continue;
      const set = remaining.get(v.memoryId) ?? new Set<string>();
      set.add(l.evidenceId);
      remaining.set(v.memoryId, set);
    }
  }
  // The thread's replies that repeat a value being cleared go with it (store/memory/replies.ts).
  await withholdRepliesNaming(tx, { workspaceId, values: versions.map((v) => v.value), replacement: FORGOTTEN_REPLY });
  await tx.memoryVersion.updateMany({ where: { id: { in: ids } }, data: { status: 'FORGOTTEN', content: '', value: '', validTo: null, forgottenAt: new Date() } });
  await tx.memoryEmbedding.deleteMany({ where: { versionId: { in: ids } } });

  // Summaries: drop sentences resting on a cleared version or a revoked source.
  const sentenceWhere: Prisma.MemorySummarySentenceWhereInput = {
    OR: [{ versionId: { in: ids } }, ...(o.evidenceIds.length ? [{ evidenceIds: { hasSome: o.evidenceIds } }] : [])],
  };
  await tx.memorySummarySentence.deleteMany({ where: sentenceWhere });
  await deleteEmptySummaries(tx, workspaceId);

  // Rebuild each chain from what remains, oldest evidence first.
  let rebuilt = 0;
  const memories = [...new Map(versions.map((v) => [v.memoryId, v.memory])).values()];
  for (const m of memories) {
    await normalizeChain(tx, m.id);
    if (!o.rebuild) continue;
    const evIds = [...(remaining.get(m.id) ?? [])];
    if (!evIds.length) continue;
    // Evidence that still founds a surviving version needs no rebuilding.
    const surviving = await tx.memoryLink.findMany({
      where: { evidenceId: { in: evIds }, role: { in: ['ORIGIN', 'REFINE'] }, version: { memoryId: m.id, status: { not: 'FORGOTTEN' } } },
      select: { evidenceId: true },
    });
    const skip = new Set(surviving.map((s) => s.evidenceId));
    const evidence = await tx.memoryEvidence.findMany({ where: { id: { in: evIds.filter((id) => !skip.has(id)) }, status: 'ACTIVE' }, orderBy: { occurredAt: 'asc' } });
    for (const e of evidence) {
      const row: EvidenceRow = { ...e, kind: e.kind as SourceKind };
      const { accepted } = validateCandidates(extractCandidates(e.text, row.kind, e.occurredAt), e.text, row.kind, e.occurredAt);
      for (const c of accepted.filter((c) => c.subjectKey === m.subjectKey && c.origin === m.origin)) {
        const a = await applyCandidate(tx, row, c);
        if (!a) continue;
        rebuilt++;
        await addSummarySentence(tx, row, a);
      }
    }
  }

  // Profiles: every snapshot that listed a cleared version is redacted; affected users get a new
  // version (always, so a prefix cached for the old one is never reused).
  const snapshots = await snapshotsListing(tx, workspaceId, ids);
  if (snapshots.length) await tx.memoryProfile.updateMany({ where: { id: { in: snapshots.map((s) => s.id) } }, data: { entries: [], text: '' } });
  const users = new Set([...snapshots.map((s) => s.user_id), ...memories.map((m) => m.userId)]);
  for (const u of users) await rebuildProfile(tx, workspaceId, u, true);

  // Earlier agent outputs that used the forgotten material: their stored request (which held the
  // memory section) and reply text are redacted; later contexts withhold them too.
  const uses = await tx.memoryUse.findMany({
    where: { OR: [{ versionId: { in: ids } }, ...(o.evidenceIds.length ? [{ evidenceId: { in: o.evidenceIds } }] : [])] },
    select: { taskId: true, stepOrdinal: true },
  });
  // A step that read a forgotten message itself (delivered to its task) relied on it as much as
  // one shown a memory from it: a fast worker may read the message before extraction ran, with no
  // memory, no key and so nothing sealed — its request holds the words in the clear.
  const readers = o.evidenceIds.length ? (await stepsThatReadEvidence(tx, o.evidenceIds)).map((r) => r.id) : [];
  const redacted = await redactSteps(tx, uses, readers);

  // Everything a task derived while this memory was in its context was sealed under a key covering
  // it (store/sealing): destroying those keys makes that content unreadable wherever it was
  // written — the append-only log included — and the tasks' summaries and indexes are rebuilt.
  const tasks = await destroyKeysOf(tx, { workspaceId, sourceIds: [...ids, ...o.evidenceIds], reason: 'FORGOTTEN' });
  await rebuildDerivedOf(tx, tasks);
  return { alreadyForgotten: false, clearedVersions: ids.length, rebuiltVersions: rebuilt, redactedSteps: redacted, profileVersions: users.size, withheldTasks: tasks.length };
}

/** The step at each (task, ordinal) position, in task order (turn number, step index). */
export async function stepsAt(db: Db, uses: { taskId: string; stepOrdinal: number }[]): Promise<string[]> {
  const out: string[] = [];
  const byTask = new Map<string, Set<number>>();
  for (const u of uses) byTask.set(u.taskId, (byTask.get(u.taskId) ?? new Set()).add(u.stepOrdinal));
  for (const [taskId, ordinals] of byTask) {
    const rows = await stepOrdinals(db, taskId);
    for (const r of rows) if (ordinals.has(r.ordinal)) out.push(r.id);
  }
  return out;
}

async function redactSteps(tx: Tx, uses: { taskId: string; stepOrdinal: number }[], alsoStepIds: string[] = []): Promise<number> {
  const ids = [...new Set([...(await stepsAt(tx, uses)), ...alsoStepIds])];
  if (!ids.length) return 0;
  return withholdStepReplies(tx, ids, WITHHELD_REPLY);
}
