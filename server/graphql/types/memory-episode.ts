import { loadEvidence, loadMemories } from '../../services/memory/browse-memories.ts';
import { builder } from '../builder.ts';
import { globalId } from '../ids.ts';
import { MemoryOriginEnum } from '../enums/memory-origin.ts';
import { MemoryEpisodeRef, MemoryEvidenceRef, MemoryRef, TaskRef } from '../refs.ts';

builder.objectType(MemoryEpisodeRef, {
  description:
    'A sentence of episodic memory: what was said in one phase of work (one task or the main thread, one UTC day), with what it rests on. Forgetting a source or a memory removes every episode resting on it.',
  fields: (t) => ({
    id: t.id({ description: "The sentence's global id.", resolve: (e) => globalId('MemoryEpisode', e.sentenceId) }),
    summaryId: t.id({
      description: 'The global id of the phase summary it belongs to: sentences of one phase share it (the agent cites it as s:<first 8 characters of its key>).',
      resolve: (e) => globalId('MemorySummary', e.summaryId),
    }),
    day: t.expose('day', { type: 'DateTime', description: 'The UTC day of the phase (midnight).' }),
    text: t.exposeString('text', { description: 'The sentence.' }),
    subjectKey: t.exposeString('subjectKey', { description: 'What it is about (the memory\'s subject key).' }),
    value: t.exposeString('value', { description: 'The value said then (a later statement may have changed it).' }),
    origin: t.field({ type: MemoryOriginEnum, description: 'Said, or concluded.', resolve: (e) => e.origin as 'USER_STATED' | 'INFERRED' }),
    task: t.field({ type: TaskRef, nullable: true, description: 'The task the phase was in; null for the main thread.', resolve: (e, _a, ctx) => (e.taskId ? ctx.loaders.task.load(e.taskId) : null) }),
    memory: t.field({
      type: MemoryRef,
      nullable: true,
      description: 'The memory it rests on (null when it has no current version any more).',
      resolve: async (e, _a, ctx) => (await loadMemories(ctx.deps, ctx.viewer, [e.memoryId]))[0] ?? null,
    }),
    sources: t.field({
      type: [MemoryEvidenceRef],
      description: 'The sources it rests on (its citations), oldest first.',
      resolve: async (e, _a, ctx) => (await loadEvidence(ctx.deps, ctx.viewer, e.citations.map((c) => c.evidenceId))).filter((x) => x !== null),
    }),
    recordedAt: t.expose('recordedAt', { type: 'DateTime', description: 'When the sentence was written.' }),
  }),
});
