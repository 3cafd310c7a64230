import { builder } from '../builder.ts';

export const MemoryKindEnum = builder.enumType('MemoryKind', { values: ['PREFERENCE', 'FACT', 'BRAND_RULE', 'WORKFLOW_HABIT'] as const });
