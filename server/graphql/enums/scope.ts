import { builder } from '../builder.ts';

export const ScopeEnum = builder.enumType('Scope', { values: ['READ', 'WRITE', 'APPROVE'] as const });
