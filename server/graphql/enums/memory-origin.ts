import { builder } from '../builder.ts';

export const MemoryOriginEnum = builder.enumType('MemoryOrigin', {
  description: 'Whether a memory was said or concluded.',
  values: {
    USER_STATED: { description: 'The user said it.' },
    INFERRED: { description: 'The system concluded it from what the user did (never shown as a statement).' },
  } as const,
});
