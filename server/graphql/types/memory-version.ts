import { builder } from '../builder.ts';
import { MemoryOriginEnum } from '../enums/memory-origin.ts';
import { MemoryVersionStatusEnum } from '../enums/memory-version-status.ts';
import { MemoryCitationRef, MemoryVersionRef } from '../refs.ts';

builder.objectType(MemoryVersionRef, {
  description: 'One version in a memory chain, with its validity over time and its sources.',
  fields: (t) => ({
    number: t.exposeInt('number'),
    status: t.field({ type: MemoryVersionStatusEnum, resolve: (v) => v.status }),
    value: t.string({ nullable: true, description: 'Null once forgotten.', resolve: (v) => (v.status === 'FORGOTTEN' ? null : v.value) }),
    content: t.string({ nullable: true, description: 'The sentence remembered; null once forgotten.', resolve: (v) => (v.status === 'FORGOTTEN' ? null : v.content) }),
    origin: t.field({ type: MemoryOriginEnum, resolve: (v) => v.origin }),
    confidence: t.exposeFloat('confidence'),
    validFrom: t.expose('validFrom', { type: 'DateTime' }),
    validTo: t.expose('validTo', { type: 'DateTime', nullable: true }),
    forgottenAt: t.expose('forgottenAt', { type: 'DateTime', nullable: true }),
    derivedFromNumber: t.int({
      nullable: true,
      description: 'For a refinement: the number of the version whose content it merged.',
      resolve: async (v, _a, ctx) => (v.derivedFromId ? ((await ctx.loaders.memoryVersions.load(v.memoryId)).find((x) => x.id === v.derivedFromId)?.number ?? null) : null),
    }),
    evidence: t.field({ type: [MemoryCitationRef], resolve: (v) => v.links }),
  }),
});
