import { builder } from '../builder.ts';

export const ObjectChangeKindEnum = builder.enumType('ObjectChangeKind', { values: ['CREATED', 'UPDATED', 'DELETED'] as const });
