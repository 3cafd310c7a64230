import { builder } from '../builder.ts';

export const ScopeEnum = builder.enumType('Scope', {
  description: "What a token may do (within its member's role).",
  values: {
    READ: { description: 'Read the workspace.' },
    WRITE: { description: 'Create and change tasks, messages, objects and memories.' },
    APPROVE: { description: 'Decide approvals (people only; never an integration or the agent).' },
  } as const,
});
