// Long-term memory: a remembered subject with its current version, history, sources and uses.
// Corrections and forgetting are mutations (../mutations/memory-mutations.ts).
import { loadMemories } from '../../services/memory/browse-memories.ts';
import { builder } from '../builder.ts';
import { MemoryKindEnum } from '../enums/memory-kind.ts';
import { MemoryOriginEnum } from '../enums/memory-origin.ts';
import { MemoryScopeEnum } from '../enums/memory-scope.ts';
import { MemoryVersionStatusEnum } from '../enums/memory-version-status.ts';
import { MemoryCitationRef, MemoryRef, MemoryUseRef, MemoryVersionRef, TaskRef } from '../refs.ts';

builder.node(MemoryRef, {
  description: 'A remembered subject in one scope: its current version, its history and its sources.',
  id: { resolve: (m) => m.id },
  loadManyWithoutCache: (ids, ctx) => loadMemories(ctx.deps, ctx.viewer, ids),
  fields: (t) => ({
    kind: t.field({ type: MemoryKindEnum, description: 'What sort of thing is remembered.', resolve: (m) => m.kind }),
    scope: t.field({ type: MemoryScopeEnum, description: 'Whom it is about, and so who sees it.', resolve: (m) => m.scope }),
    subjectKey: t.exposeString('subjectKey', { description: 'What it is about (e.g. "brand.colors", "user.residence").' }),
    origin: t.field({ type: MemoryOriginEnum, description: 'Of the current version.', resolve: (m) => m.current.origin }),
    confidence: t.float({ description: 'Of the current version: how sure the extraction was, 0..1.', resolve: (m) => m.current.confidence }),
    value: t.string({ description: 'The value remembered (e.g. "teal").', resolve: (m) => m.current.value }),
    content: t.string({ description: 'The sentence remembered (e.g. "Brand color: teal").', resolve: (m) => m.current.content }),
    status: t.field({ type: MemoryVersionStatusEnum, description: 'Of the current version.', resolve: (m) => m.current.status }),
    version: t.int({ description: 'The number of the current version.', resolve: (m) => m.current.number }),
    validFrom: t.field({ type: 'DateTime', description: 'From when the current version holds.', resolve: (m) => m.current.validFrom }),
    validTo: t.field({ type: 'DateTime', nullable: true, description: 'Until when it held; null while it holds.', resolve: (m) => m.current.validTo }),
    task: t.field({ type: TaskRef, nullable: true, description: 'For a task memory: its task.', resolve: (m, _a, ctx) => (m.taskId ? ctx.loaders.task.load(m.taskId) : null) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was first remembered.' }),
    versions: t.field({
      type: [MemoryVersionRef],
      description: 'The chain, oldest first (forgotten versions keep only their place).',
      resolve: (m, _a, ctx) => ctx.loaders.memoryVersions.load(m.id),
    }),
    evidence: t.field({
      type: [MemoryCitationRef],
      description: 'The sources of the current version.',
      resolve: async (m, _a, ctx) => (await ctx.loaders.memoryVersions.load(m.id)).find((v) => v.id === m.current.id)?.links ?? [],
    }),
    usedBy: t.field({
      type: [MemoryUseRef],
      description: "Worker steps whose context included this memory, newest first.",
      resolve: (m, _a, ctx) => ctx.loaders.memoryUses.load(m.id),
    }),
  }),
});
