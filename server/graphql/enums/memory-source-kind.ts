import { builder } from '../builder.ts';

export const MemorySourceKindEnum = builder.enumType('MemorySourceKind', {
  description: 'What a source of memories is.',
  values: {
    MESSAGE: { description: 'A message the user wrote.' },
    NOTE: { description: 'A correction entered through the API (correctMemory).' },
    OBSERVATION: { description: 'Something the system observed; supports inferences only.' },
  } as const,
});
