import { builder } from '../builder.ts';

export const MemoryScopeEnum = builder.enumType('MemoryScope', {
  description: 'Whom a memory is about, and so who sees it.',
  values: {
    USER: { description: 'One person; seen only by them.' },
    WORKSPACE: { description: 'The workspace; seen by everyone in it.' },
    TASK: { description: 'One task; seen by everyone who sees the task.' },
  } as const,
});
