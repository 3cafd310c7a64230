import { builder } from '../builder.ts';

export const MemoryOriginEnum = builder.enumType('MemoryOrigin', {
  description: 'USER_STATED: the user said it. INFERRED: the system concluded it from what the user did (never shown as a statement).',
  values: ['USER_STATED', 'INFERRED'] as const,
});
