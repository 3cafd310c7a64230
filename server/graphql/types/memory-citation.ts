import { builder } from '../builder.ts';
import { MemoryLinkRoleEnum } from '../enums/memory-link-role.ts';
import { MemoryCitationRef, MemoryEvidenceRef } from '../refs.ts';

builder.objectType(MemoryCitationRef, {
  description: 'Provenance: a source and how it supports a version.',
  fields: (t) => ({
    role: t.field({ type: MemoryLinkRoleEnum, resolve: (l) => l.role }),
    evidence: t.field({ type: MemoryEvidenceRef, resolve: (l) => l.evidence }),
    linkedAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});
