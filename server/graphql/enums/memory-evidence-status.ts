import { builder } from '../builder.ts';

export const MemoryEvidenceStatusEnum = builder.enumType('MemoryEvidenceStatus', { values: ['ACTIVE', 'REVOKED'] as const });
