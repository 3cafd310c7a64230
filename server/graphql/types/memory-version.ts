import { builder } from '../builder.ts';
import { MemoryOriginEnum } from '../enums/memory-origin.ts';
import { MemoryVersionStatusEnum } from '../enums/memory-version-status.ts';
import { MemoryCitationRef, MemoryVersionRef } from '../refs.ts';

builder.objectType(MemoryVersionRef, {
  description: 'One version in a memory chain, with its validity over time and its sources.',
  fields: (t) => ({
    number: t.exposeInt('number', { description: 'Its place in the chain: 1 for the first.' }),
    status: t.field({ type: MemoryVersionStatusEnum, description: 'Current, superseded or forgotten.', resolve: (v) => v.status }),
    value: t.string({ nullable: true, description: 'Null once forgotten.', resolve: (v) => (v.status === 'FORGOTTEN' ? null : v.value) }),
    content: t.string({ nullable: true, description: 'The sentence remembered; null once forgotten.', resolve: (v) => (v.status === 'FORGOTTEN' ? null : v.content) }),
    origin: t.field({ type: MemoryOriginEnum, description: 'Said, or concluded.', resolve: (v) => v.origin }),
    confidence: t.exposeFloat('confidence', { description: 'How sure the extraction was, 0..1.' }),
    validFrom: t.expose('validFrom', { type: 'DateTime', description: 'From when it holds (as said: "since April").' }),
    validTo: t.expose('validTo', { type: 'DateTime', nullable: true, description: 'Until when it held (a later version took over); null while it holds.' }),
    forgottenAt: t.expose('forgottenAt', { type: 'DateTime', nullable: true, description: 'When it was forgotten.' }),
    derivedFromNumber: t.int({
      nullable: true,
      description: 'For a refinement: the number of the version whose content it merged.',
      resolve: async (v, _a, ctx) => (v.derivedFromId ? ((await ctx.loaders.memoryVersions.load(v.memoryId)).find((x) => x.id === v.derivedFromId)?.number ?? null) : null),
    }),
    evidence: t.field({ type: [MemoryCitationRef], description: 'Its sources, and how each supports it.', resolve: (v) => v.links }),
  }),
});
