// Long-term memory in the worker's context. The profile (a versioned snapshot), the memories
// relevant to the task and the episodes of earlier work relevant to it (episodes.ts: this task's
// earlier phases and others that meet its title and brief), each with citations, form one delimited
// system section; which memory versions and evidence were shown — an episode's version and every
// source it rests on included — is recorded in memory_uses for the step, so forgetting finds the
// steps that relied on them. Enrichment is optional: when the retrieval takes longer than the
// timeout the step goes on without it and the journal says so (MEMORY_UNAVAILABLE). What
// forgetting withholds is computed separately and never skipped.
import { appendNow } from '../../channel/unit-of-work.ts';
import type { EventNotifier } from '../../channel/notifier.ts';
import type { PrismaClient } from '../../db/client.ts';
import type { Logger } from '../../log.ts';
import { forgottenUses, revokedInboxItems, stepsThatRead } from '../../store/memory/uses.ts';
import type { Embedder } from '../../routing/embeddings.ts';
import type { WorkerMemory, WorkerMemoryContext } from '../../runtime/memory.ts';
import { stepsAt } from './forget.ts';
import { retrieveEpisodes, type RetrievedEpisode } from './episodes.ts';
import { retrieveMemories, type RetrievedMemory } from './retrieve-memories.ts';

export type WorkerMemoryOptions = {
  timeoutMs: number;
  /** Fault injection for tests: delay the retrieval by this much. */
  retrievalDelayMs?: number;
  maxMemories?: number;
  /** Episodes of earlier work shown at most (5 by default). */
  maxEpisodes?: number;
};

/** Episodes of other phases the worker's relevance test reads at most per step (the newest). */
const WORKER_EPISODE_CANDIDATES = 200;

export const MEMORY_SECTION_START = '<long-term-memory>';
export const MEMORY_SECTION_END = '</long-term-memory>';

/** What the section shows of an episode (retrieveEpisodes' results fit). */
export type SectionEpisode = Pick<RetrievedEpisode, 'summaryId' | 'day' | 'taskTitle' | 'text' | 'evidenceIds'>;

/**
 * Pure: the section text. Stable for a given profile version, memory set and episode set: an
 * episode carries its own day (a fact of the past, not the clock).
 */
export function renderMemorySection(profile: { version: number; text: string } | null, memories: RetrievedMemory[], episodes: SectionEpisode[] = []): string | null {
  if (!profile?.text && !memories.length && !episodes.length) return null;
  const lines = [
    MEMORY_SECTION_START,
    'Long-term memory about the user and workspace. Background only: the task brief and the user\'s latest messages take precedence. Cite [e:<id>] when you rely on a memory.',
  ];
  if (profile?.text) lines.push(`Profile (v${profile.version}):`, profile.text);
  if (memories.length) {
    lines.push('Relevant memories:');
    for (const m of memories) {
      const cites = m.citations.map((c) => `e:${c.evidenceId.slice(0, 8)}`).join(', ');
      lines.push(`- ${m.content}${m.origin === 'INFERRED' ? ' (inferred, unconfirmed)' : ''} [${cites}]`);
    }
  }
  if (episodes.length) {
    lines.push('Earlier work (episodes, oldest first; what was said then, which later statements may have changed):');
    for (const e of [...episodes].sort((a, b) => a.day.getTime() - b.day.getTime())) {
      const cites = [...e.evidenceIds.map((id) => `e:${id.slice(0, 8)}`), `s:${e.summaryId.slice(0, 8)}`].join(', ');
      lines.push(`- ${e.day.toISOString().slice(0, 10)}, ${e.taskTitle ? `in "${e.taskTitle}"` : 'in the main thread'}: ${e.text} [${cites}]`);
    }
  }
  lines.push(MEMORY_SECTION_END);
  return lines.join('\n');
}

export class MemoryWorkerContext implements WorkerMemory {
  /** Rendered profile prefixes by (workspace, user, profile version): a new version never hits an old entry. */
  private readonly prefixCache = new Map<string, string>();

  constructor(
    private readonly deps: { prisma: PrismaClient; notifier: EventNotifier; log: Logger; embedder?: Embedder | null },
    readonly options: WorkerMemoryOptions,
  ) {}

  /** The profile part of the stable prefix, cached per profile version. */
  async profilePrefix(workspaceId: string, userId: string): Promise<{ version: number; text: string } | null> {
    const latest = await this.deps.prisma.memoryProfile.findFirst({ where: { workspaceId, userId }, orderBy: { version: 'desc' }, select: { version: true } });
    if (!latest) return null;
    const key = `${workspaceId}:${userId}:${latest.version}`;
    let text = this.prefixCache.get(key);
    if (text === undefined) {
      const row = await this.deps.prisma.memoryProfile.findUniqueOrThrow({ where: { workspaceId_userId_version: { workspaceId, userId, version: latest.version } } });
      text = row.text;
      for (const k of this.prefixCache.keys()) if (k.startsWith(`${workspaceId}:${userId}:`)) this.prefixCache.delete(k);
      this.prefixCache.set(key, text);
    }
    return { version: latest.version, text };
  }

  async contextFor(taskId: string, stepOrdinal: number): Promise<WorkerMemoryContext> {
    const withheld = await this.withheld(taskId);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((r) => {
      timer = setTimeout(() => r('timeout'), this.options.timeoutMs);
    });
    try {
      const got = await Promise.race([this.enrich(taskId, stepOrdinal), timeout]);
      if (got === 'timeout') {
        await this.note(taskId, { reason: 'timeout', timeoutMs: this.options.timeoutMs });
        return { section: null, ...withheld };
      }
      return { section: got, ...withheld };
    } catch (e) {
      this.deps.log.warn('memory retrieval failed; the step goes on without it', { taskId, error: String(e) });
      await this.note(taskId, { reason: 'error' }).catch(() => undefined);
      return { section: null, ...withheld };
    } finally {
      clearTimeout(timer);
    }
  }

  private async note(taskId: string, payload: Record<string, unknown>) {
    await appendNow(this.deps, taskId, [{ type: 'MEMORY_UNAVAILABLE', actor: { kind: 'SYSTEM' }, payload: { ...payload, effect: 'the step continues without long-term memory' } }]);
  }

  private async enrich(taskId: string, stepOrdinal: number): Promise<string | null> {
    if (this.options.retrievalDelayMs) await new Promise((r) => setTimeout(r, this.options.retrievalDelayMs));
    const task = await this.deps.prisma.task.findUniqueOrThrow({ where: { id: taskId }, select: { workspaceId: true, createdById: true, title: true, goal: true } });
    if (!task.createdById) return null;
    const q = { workspaceId: task.workspaceId, userId: task.createdById, taskId, limit: this.options.maxMemories ?? 8 };
    // The four reads are independent: run together, the section costs the slowest of them, not their
    // sum (it has a budget of its own: past it the step goes on without memory).
    const [profile, relevant, brand, episodes] = await Promise.all([
      this.profilePrefix(task.workspaceId, task.createdById),
      retrieveMemories(this.deps.prisma, { ...q, text: `${task.title} ${task.goal}` }, this.deps.embedder),
      // Brand rules always apply to the workspace's work.
      retrieveMemories(this.deps.prisma, { ...q, kinds: ['BRAND_RULE'] }),
      this.episodesFor(task.workspaceId, task.createdById, taskId, `${task.title} ${task.goal}`),
    ]);
    const seen = new Set<string>();
    const memories = [...brand, ...relevant].filter((m) => !seen.has(m.versionId) && seen.add(m.versionId)).slice(0, q.limit);
    const section = renderMemorySection(profile, memories, episodes);
    if (section) {
      const profileRow = profile
        ? await this.deps.prisma.memoryProfile.findUnique({ where: { workspaceId_userId_version: { workspaceId: task.workspaceId, userId: task.createdById, version: profile.version } } })
        : null;
      const entries = ((profileRow?.entries ?? []) as { versionId: string }[]).map((e) => e.versionId);
      const versionIds = [...new Set([...memories.map((m) => m.versionId), ...episodes.map((e) => e.versionId), ...entries])];
      const evidenceIds = [...new Set([...memories.flatMap((m) => m.citations.map((c) => c.evidenceId)), ...episodes.flatMap((e) => e.evidenceIds)])];
      const evOfEntries = entries.length ? await this.deps.prisma.memoryLink.findMany({ where: { versionId: { in: entries } }, select: { evidenceId: true } }) : [];
      for (const e of evOfEntries) if (!evidenceIds.includes(e.evidenceId)) evidenceIds.push(e.evidenceId);
      await this.deps.prisma.memoryUse.createMany({
        data: [
          ...versionIds.map((id) => ({ workspaceId: task.workspaceId, taskId, stepOrdinal, versionId: id, useKey: `${taskId}:${stepOrdinal}:v:${id}` })),
          ...evidenceIds.map((id) => ({ workspaceId: task.workspaceId, taskId, stepOrdinal, evidenceId: id, useKey: `${taskId}:${stepOrdinal}:e:${id}` })),
        ],
        skipDuplicates: true,
      });
    }
    return section;
  }

  /**
   * Episodes of earlier work for a task: its own earlier phases, then others that meet its title and
   * brief (the brief's words only: a date in it is no question about a time), newest first, at most
   * `maxEpisodes`. What a correction replaced is left out: the person said it was wrong.
   */
  private async episodesFor(workspaceId: string, userId: string, taskId: string, text: string): Promise<RetrievedEpisode[]> {
    const limit = this.options.maxEpisodes ?? 5;
    if (limit <= 0) return [];
    const own = await retrieveEpisodes(this.deps.prisma, { workspaceId, userId, taskId, limit, excludeCorrected: true });
    // Relevance is decided on the newest candidates only: this runs for every step, within the memory timeout.
    const related = await retrieveEpisodes(this.deps.prisma, { workspaceId, userId, text, readTime: false, limit, candidates: WORKER_EPISODE_CANDIDATES, excludeCorrected: true });
    const seen = new Set<string>();
    return [...own.episodes, ...related.episodes].filter((e) => !seen.has(e.sentenceId) && seen.add(e.sentenceId)).slice(0, limit);
  }

  /** Steps that used forgotten memory or revoked evidence, and inbox items of revoked messages. */
  private async withheld(taskId: string): Promise<Omit<WorkerMemoryContext, 'section'>> {
    const uses = await forgottenUses(this.deps.prisma, taskId);
    const stepIds = uses.length ? await stepsAt(this.deps.prisma, uses.map((u) => ({ taskId: u.task_id, stepOrdinal: u.step_ordinal }))) : [];
    const inbox = await revokedInboxItems(this.deps.prisma, taskId);
    // A step that read a revoked message relied on it too.
    const readers = inbox.length ? await stepsThatRead(this.deps.prisma, inbox.map((i) => i.id)) : [];
    return { withheldStepIds: [...new Set([...stepIds, ...readers.map((r) => r.id)])], withheldInboxIds: inbox.map((i) => i.id) };
  }
}
