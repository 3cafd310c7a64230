import { builder } from '../builder.ts';
import { MemoryLinkRoleEnum } from '../enums/memory-link-role.ts';
import { MemoryCitationRef, MemoryEvidenceRef } from '../refs.ts';

builder.objectType(MemoryCitationRef, {
  description: 'Provenance: a source and how it supports a version.',
  fields: (t) => ({
    role: t.field({ type: MemoryLinkRoleEnum, description: 'How the source supports the version.', resolve: (l) => l.role }),
    evidence: t.field({ type: MemoryEvidenceRef, description: 'The source.', resolve: (l) => l.evidence }),
    linkedAt: t.expose('createdAt', { type: 'DateTime', description: 'When the link was made.' }),
  }),
});
