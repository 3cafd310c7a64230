import { builder } from '../builder.ts';

export const ActorKindEnum = builder.enumType('ActorKind', { values: ['USER', 'AGENT', 'SYSTEM'] as const });
