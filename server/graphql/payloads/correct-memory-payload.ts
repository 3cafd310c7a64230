import { notFound } from '../../errors.ts';
import { loadMemories } from '../../services/memory/browse-memories.ts';
import type { CorrectMemoryResult } from '../../services/memory/correct-memory.ts';
import { builder } from '../builder.ts';
import { MemoryRef } from '../refs.ts';

export const CorrectMemoryPayload = builder.objectRef<CorrectMemoryResult>('CorrectMemoryPayload').implement({
  description: 'A memory after a correction.',
  fields: (t) => ({
    memory: t.field({
      type: MemoryRef,
      description: 'The memory holding the correction (for a corrected inference: the stated memory of the same subject).',
      resolve: async (r, _a, ctx) => {
        const [m] = await loadMemories(ctx.deps, ctx.viewer, [r.memoryId]);
        if (!m) throw notFound('Memory');
        return m;
      },
    }),
    versionNumber: t.int({
      description: 'The version the correction wrote (or confirmed).',
      resolve: async (r, _a, ctx) => (await ctx.loaders.memoryVersions.load(r.memoryId)).find((v) => v.id === r.versionId)?.number ?? 0,
    }),
    duplicate: t.exposeBoolean('duplicate', { description: 'True when this idempotency key was used before (nothing new was written).' }),
  }),
});
