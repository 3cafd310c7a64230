// Extraction of one piece of evidence, applied exactly once per (evidence, extractor version): the
// extraction record commits in the same transaction as its effects, so a retried job (pg-boss
// retry after a crash or an error) finds it and does nothing.
import type { PrismaClient } from '../../db/client.ts';
import type { Prisma } from '../../db/generated/client.ts';
import type { Logger } from '../../log.ts';
import type { Embedder } from '../../routing/embeddings.ts';
import { upsertVersionEmbedding } from '../../store/memory/embeddings.ts';
import { lockEvidence, unextractedEvidence } from '../../store/memory/evidence.ts';
import { EXTRACTOR_VERSION, extractCandidates, validateCandidates, type Rejection, type SourceKind } from './extractor.ts';
import { addSummarySentence, applyCandidate, rebuildProfile, type Applied, type EvidenceRow } from './store.ts';

/**
 * Produces raw candidates for a text written at `at` (the model extractor, or the rule-based one).
 * A source that fell back to another extractor says so with the version that produced them, which
 * is the one recorded (a model that failed leaves its own version unrecorded, to be tried again).
 */
export type CandidateSource = {
  version: string;
  extract(text: string, source: SourceKind, at: Date): Promise<unknown[] | { candidates: unknown[]; version: string }>;
};

export const ruleExtractor: CandidateSource = { version: EXTRACTOR_VERSION, extract: async (text, source, at) => extractCandidates(text, source, at) };

export type MemoryDeps = {
  prisma: PrismaClient;
  log?: Logger;
  embedder?: Embedder | null;
  extractor?: CandidateSource;
  /** Fault injection for tests: throw before committing the next n extractions. */
  faults?: { failNextExtractions?: number };
};

export type ExtractionReport = { evidenceId: string; status: 'APPLIED' | 'ALREADY_APPLIED' | 'SKIPPED_REVOKED' | 'SUPPRESSED'; applied: Applied[]; rejected: Rejection[] };

export async function extractEvidence(deps: MemoryDeps, evidenceId: string): Promise<ExtractionReport> {
  const extractor = deps.extractor ?? ruleExtractor;
  const done = await deps.prisma.memoryExtraction.findUnique({ where: { evidenceId_extractorVersion: { evidenceId, extractorVersion: extractor.version } } });
  if (done) return { evidenceId, status: 'ALREADY_APPLIED', applied: [], rejected: [] };
  const first = await deps.prisma.memoryEvidence.findUniqueOrThrow({ where: { id: evidenceId } });
  // The model call (if any) happens outside the transaction; its output is validated inside.
  const got = first.status === 'ACTIVE' ? await extractor.extract(first.text, first.kind as SourceKind, first.occurredAt) : [];
  const raw = Array.isArray(got) ? got : got.candidates;
  const version = Array.isArray(got) ? extractor.version : got.version;
  const report = await deps.prisma.$transaction(
    async (tx) => {
      const ev = await lockEvidence(tx, evidenceId);
      if (!ev.length) throw new Error(`evidence ${evidenceId} vanished`);
      const again = await tx.memoryExtraction.findUnique({ where: { evidenceId_extractorVersion: { evidenceId, extractorVersion: version } } });
      if (again) return { evidenceId, status: 'ALREADY_APPLIED' as const, applied: [], rejected: [] };
      const e = await tx.memoryEvidence.findUniqueOrThrow({ where: { id: evidenceId } });
      let out: ExtractionReport;
      const tomb = await tx.memoryTombstone.findUnique({ where: { workspaceId_userId_hash: { workspaceId: e.workspaceId, userId: e.userId, hash: e.contentHash } } });
      if (e.status !== 'ACTIVE') out = { evidenceId, status: 'SKIPPED_REVOKED', applied: [], rejected: [] };
      else if (tomb) out = { evidenceId, status: 'SUPPRESSED', applied: [], rejected: [] };
      else {
        const row: EvidenceRow = { ...e, kind: e.kind as SourceKind };
        const { accepted, rejected } = validateCandidates(raw, e.text, row.kind, e.occurredAt);
        const applied: Applied[] = [];
        for (const c of accepted) {
          const a = await applyCandidate(tx, row, c);
          if (!a) continue;
          applied.push(a);
          await addSummarySentence(tx, row, a);
        }
        if (applied.length) await rebuildProfile(tx, e.workspaceId, e.userId);
        out = { evidenceId, status: 'APPLIED', applied, rejected };
      }
      if (deps.faults?.failNextExtractions) {
        deps.faults.failNextExtractions--;
        throw new Error('injected extraction failure');
      }
      await tx.memoryExtraction.create({
        data: {
          evidenceId,
          extractorVersion: version,
          report: { status: out.status, applied: out.applied.length, rejected: out.rejected.map((r) => ({ reason: r.reason, detail: r.detail })) } as Prisma.InputJsonValue,
        },
      });
      return out;
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
  if (report.applied.length && deps.embedder) await embedVersions(deps, report.applied.map((a) => a.versionId)).catch((e) => deps.log?.warn('memory embedding failed', { error: String(e) }));
  return report;
}

/** Embeds versions (best effort, after commit). Forgotten versions are skipped. */
export async function embedVersions(deps: MemoryDeps, versionIds: string[]): Promise<void> {
  if (!deps.embedder || !versionIds.length) return;
  const rows = await deps.prisma.memoryVersion.findMany({ where: { id: { in: versionIds }, status: { not: 'FORGOTTEN' } }, select: { id: true, content: true } });
  if (!rows.length) return;
  const vectors = await deps.embedder.embed(rows.map((r) => r.content));
  for (let i = 0; i < rows.length; i++) {
    const v = vectors[i]!;
    const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
    const vector = v.map((x) => x / n);
    // Only while the version still has content (a concurrent forget wins).
    await upsertVersionEmbedding(deps.prisma, { versionId: rows[i]!.id, model: deps.embedder.model, vector: `{${vector.map((x) => x.toFixed(7)).join(',')}}` });
  }
}

/** On demand: extracts every evidence of a user in a workspace not yet extracted by this version. */
export async function extractPending(deps: MemoryDeps, workspaceId: string, userId: string): Promise<ExtractionReport[]> {
  const version = (deps.extractor ?? ruleExtractor).version;
  const pending = await unextractedEvidence(deps.prisma, { workspaceId, userId, extractorVersion: version });
  const out: ExtractionReport[] = [];
  for (const p of pending) out.push(await extractEvidence(deps, p.id));
  return out;
}
