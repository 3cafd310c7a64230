import { builder } from '../builder.ts';

export const MemoryEvidenceStatusEnum = builder.enumType('MemoryEvidenceStatus', {
  description: 'Whether a source still counts.',
  values: {
    ACTIVE: { description: 'It supports what rests on it.' },
    REVOKED: { description: 'Forgotten: it supports nothing any more and keeps no text.' },
  } as const,
});
