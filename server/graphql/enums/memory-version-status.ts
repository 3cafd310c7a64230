import { builder } from '../builder.ts';

export const MemoryVersionStatusEnum = builder.enumType('MemoryVersionStatus', {
  description: 'Where a version of a memory is in its chain.',
  values: {
    CURRENT: { description: 'In effect.' },
    SUPERSEDED: { description: 'Replaced by a later version (see validTo).' },
    FORGOTTEN: { description: 'Cleared by forgetting; only its place in the chain remains.' },
  } as const,
});
