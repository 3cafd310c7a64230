import { builder } from '../builder.ts';

export const MemoryVersionStatusEnum = builder.enumType('MemoryVersionStatus', {
  description: 'CURRENT: in effect. SUPERSEDED: replaced by a later version (see validTo). FORGOTTEN: cleared by forgetting; only its place in the chain remains.',
  values: ['CURRENT', 'SUPERSEDED', 'FORGOTTEN'] as const,
});
