import { builder } from '../builder.ts';

export const MemorySourceKindEnum = builder.enumType('MemorySourceKind', {
  description: 'MESSAGE: a message the user wrote. NOTE: a correction entered through the API. OBSERVATION: something the system observed (supports inferences only).',
  values: ['MESSAGE', 'NOTE', 'OBSERVATION'] as const,
});
