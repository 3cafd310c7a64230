import { builder } from '../builder.ts';

export const ObjectChangeKindEnum = builder.enumType('ObjectChangeKind', {
  description: 'What happened to an object.',
  values: {
    CREATED: { description: 'It was made (its version 1).' },
    UPDATED: { description: 'A new version was written.' },
    DELETED: { description: 'A person approved its deletion; it is read-only now.' },
  } as const,
});
