// A person correcting a memory through the API. The correction is itself evidence (a NOTE keyed by
// the caller's idempotency key) and founds a new USER_STATED version (ORIGIN link) that supersedes
// the current one; the chain's validity, the phase summary and the profile are updated in the same
// transaction. Retrying with the same key returns the first result and writes nothing.
//
// A correction of an inference goes to the stated chain of the same subject and scope (stated and
// inferred chains stay apart, and the stated one wins at retrieval), so a later inference can never
// supersede what the user said.
import { z } from 'zod';
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Deps } from '../deps.ts';
import type { Prisma } from '../../db/generated/client.ts';
import { notFound } from '../../errors.ts';
import { parseInput } from '../validate.ts';
import { checkIdempotencyKey, claimOf, recordIdempotencyKey } from '../../store/idempotency.ts';
import { lockMemory } from '../../store/memory/memories.ts';
import { contentFor, normalizeValue } from './extractor.ts';
import { embedVersions, ruleExtractor } from './extract-memories.ts';
import { addSummarySentence, normalizeChain, rebuildProfile, recordEvidence, type EvidenceRow } from './store.ts';

export const CorrectMemoryInput = z.object({
  memoryId: z.string().uuid(),
  value: z.string().trim().min(1, 'the value must not be empty').max(200, 'the value is at most 200 characters'),
  idempotencyKey: z.string().trim().min(1).max(200),
});

export type CorrectMemoryResult = { memoryId: string; versionId: string; evidenceId: string; duplicate: boolean };

/** Who may see (and so correct) a memory: workspace and task memories of the workspace, and one's own user memories. */
export const visibleMemory = (viewer: Viewer, m: { workspaceId: string; scope: string; userId: string }) =>
  viewer.memberships.has(m.workspaceId) && (m.scope !== 'USER' || m.userId === viewer.userId);

export async function correctMemory(deps: Deps, viewer: Viewer, raw: z.input<typeof CorrectMemoryInput>): Promise<CorrectMemoryResult> {
  const input = parseInput(CorrectMemoryInput, raw);
  const target = await deps.prisma.memory.findUnique({ where: { id: input.memoryId } });
  if (!target || !visibleMemory(viewer, target)) throw notFound('Memory');
  requireWorkspace(viewer, target.workspaceId, 'write', 'Memory');
  const key = { workspaceId: target.workspaceId, userId: viewer.userId, requestKey: input.idempotencyKey };
  // The key names this correction: the same key with another memory or value is refused.
  const claim = claimOf('correctMemory', { workspaceId: target.workspaceId, userId: viewer.userId }, input)!;
  await checkIdempotencyKey(deps.prisma, claim);
  const replay = () => recorded(deps, key);
  const first = await replay();
  if (first) return first;

  let result: CorrectMemoryResult;
  try {
    result = await deps.prisma.$transaction(
      async (tx) => {
        await lockMemory(tx, target.id);
        await recordIdempotencyKey(tx, claim);
        const live = await tx.memoryVersion.findFirst({ where: { memoryId: target.id, status: 'CURRENT' } });
        // A memory forgotten entirely does not exist any more.
        if (!live) throw notFound('Memory');
        const memory =
          target.origin === 'USER_STATED'
            ? target
            : await tx.memory.upsert({
                where: { workspaceId_scopeKey_subjectKey_origin: { workspaceId: target.workspaceId, scopeKey: target.scopeKey, subjectKey: target.subjectKey, origin: 'USER_STATED' } },
                create: { workspaceId: target.workspaceId, userId: target.userId, taskId: target.taskId, scope: target.scope, scopeKey: target.scopeKey, kind: target.kind, subjectKey: target.subjectKey, origin: 'USER_STATED' },
                update: {},
              });
        if (memory.id !== target.id) await lockMemory(tx, memory.id);
        const current = memory.id === target.id ? live : await tx.memoryVersion.findFirst({ where: { memoryId: memory.id, status: 'CURRENT' } });
        // The correction takes effect now (and never before the version it replaces).
        const at = new Date(Math.max(Date.now(), (current?.validFrom.getTime() ?? 0) + 1));
        const content = contentFor(memory.subjectKey, input.value);
        const created = await recordEvidence(tx, { workspaceId: memory.workspaceId, userId: viewer.userId, taskId: memory.taskId, kind: 'NOTE', text: `Correction: ${content}`, occurredAt: at });
        const ev = await tx.memoryEvidence.update({ where: { id: created.id }, data: { requestKey: input.idempotencyKey } });
        // The note is the correction itself, not material for the extractor.
        await tx.memoryExtraction.create({
          data: { evidenceId: ev.id, extractorVersion: (deps.memory.extractor ?? ruleExtractor).version, report: { status: 'CORRECTION', applied: 1, rejected: [] } as Prisma.InputJsonValue },
        });
        let versionId: string;
        if (current && current.origin === 'USER_STATED' && normalizeValue(current.value) === normalizeValue(input.value)) {
          // Saying the same thing again confirms it.
          await tx.memoryLink.create({ data: { versionId: current.id, evidenceId: ev.id, role: 'CONFIRM' } });
          await tx.memoryVersion.update({ where: { id: current.id }, data: { confidence: 1 } });
          versionId = current.id;
        } else {
          const last = await tx.memoryVersion.findFirst({ where: { memoryId: memory.id }, orderBy: { number: 'desc' }, select: { number: true } });
          const version = await tx.memoryVersion.create({
            data: {
              memoryId: memory.id,
              workspaceId: memory.workspaceId,
              number: (last?.number ?? 0) + 1,
              value: input.value,
              content,
              origin: 'USER_STATED',
              confidence: 1,
              validFrom: at,
              links: { create: { evidenceId: ev.id, role: 'ORIGIN' } },
            },
          });
          versionId = version.id;
          await normalizeChain(tx, memory.id);
          const row: EvidenceRow = { ...ev, kind: 'NOTE' };
          await addSummarySentence(tx, row, { versionId, memoryId: memory.id, effect: current ? 'SUPERSEDED_PREVIOUS' : 'CREATED' });
        }
        await rebuildProfile(tx, memory.workspaceId, viewer.userId);
        if (memory.userId !== viewer.userId) await rebuildProfile(tx, memory.workspaceId, memory.userId);
        return { memoryId: memory.id, versionId, evidenceId: ev.id, duplicate: false };
      },
      { maxWait: 10_000, timeout: 30_000 },
    );
  } catch (e) {
    // A concurrent request with the same key won the unique (workspace, user, request key).
    if ((e as { code?: string }).code === 'P2002') {
      const again = await replay();
      if (again) return again;
    }
    throw e;
  }
  await embedVersions(deps.memory, [result.versionId]).catch((e) => deps.log.warn('memory embedding failed', { error: String(e) }));
  return result;
}

async function recorded(deps: Deps, key: { workspaceId: string; userId: string; requestKey: string }): Promise<CorrectMemoryResult | null> {
  const ev = await deps.prisma.memoryEvidence.findUnique({
    where: { workspaceId_userId_requestKey: key },
    include: { links: { include: { version: { select: { memoryId: true } } } } },
  });
  if (!ev) return null;
  const link = ev.links[0];
  // The correction was forgotten since: the memory it wrote is gone.
  if (!link) throw notFound('Memory');
  return { memoryId: link.version.memoryId, versionId: link.versionId, evidenceId: ev.id, duplicate: true };
}
