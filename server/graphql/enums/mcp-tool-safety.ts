import { builder } from '../builder.ts';

export const McpToolSafetyEnum = builder.enumType('McpToolSafety', {
  description: 'What happens when a call to a tool is repeated (after a crash, the call may be sent again only if it is safe to).',
  values: {
    READ_ONLY: { description: 'Only reads: changes nothing, may be repeated.' },
    IDEMPOTENT: { description: 'Safe to repeat: the same call twice has the effect of one.' },
    AT_MOST_ONCE: { description: 'Runs once: never sent again once it may have reached the server.' },
  } as const,
});
