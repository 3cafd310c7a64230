import { builder } from '../builder.ts';

export const MemoryScopeEnum = builder.enumType('MemoryScope', {
  description: 'USER: about one person, seen only by them. WORKSPACE: for everyone in the workspace. TASK: for one task.',
  values: ['USER', 'WORKSPACE', 'TASK'] as const,
});
