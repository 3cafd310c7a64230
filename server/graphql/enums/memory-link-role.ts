import { builder } from '../builder.ts';

export const MemoryLinkRoleEnum = builder.enumType('MemoryLinkRole', {
  description: 'How a source supports a version of a memory.',
  values: {
    ORIGIN: { description: 'It stated the value.' },
    REFINE: { description: 'It added to the previous version (merged into it).' },
    CONFIRM: { description: 'It repeated the value.' },
  } as const,
});
