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
    kind: t.field({ type: MemoryKindEnum, resolve: (m) => m.kind }),
    scope: t.field({ type: MemoryScopeEnum, resolve: (m) => m.scope }),
    subjectKey: t.exposeString('subjectKey'),
    origin: t.field({ type: MemoryOriginEnum, description: 'Of the current version.', resolve: (m) => m.current.origin }),
    confidence: t.float({ resolve: (m) => m.current.confidence }),
    value: t.string({ resolve: (m) => m.current.value }),
    content: t.string({ resolve: (m) => m.current.content }),
    status: t.field({ type: MemoryVersionStatusEnum, resolve: (m) => m.current.status }),
    version: t.int({ description: 'The number of the current version.', resolve: (m) => m.current.number }),
    validFrom: t.field({ type: 'DateTime', resolve: (m) => m.current.validFrom }),
    validTo: t.field({ type: 'DateTime', nullable: true, resolve: (m) => m.current.validTo }),
    task: t.field({ type: TaskRef, nullable: true, description: 'For a task memory: its task.', resolve: (m, _a, ctx) => (m.taskId ? ctx.loaders.task.load(m.taskId) : null) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
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
