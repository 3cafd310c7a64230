import { builder } from '../builder.ts';

export const RoleEnum = builder.enumType('Role', { values: ['OWNER', 'MEMBER', 'VIEWER'] as const });
