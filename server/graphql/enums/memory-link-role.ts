import { builder } from '../builder.ts';

export const MemoryLinkRoleEnum = builder.enumType('MemoryLinkRole', {
  description: 'How a source supports a version. ORIGIN: it stated the value. REFINE: it added to the previous version (merged). CONFIRM: it repeated it.',
  values: ['ORIGIN', 'REFINE', 'CONFIRM'] as const,
});
