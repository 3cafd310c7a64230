import { builder } from '../builder.ts';

export const MessageRoleEnum = builder.enumType('MessageRole', { values: ['USER', 'ASSISTANT', 'SYSTEM'] as const });
