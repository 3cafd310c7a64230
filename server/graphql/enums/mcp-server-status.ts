import { builder } from '../builder.ts';

export const McpServerStatusEnum = builder.enumType('McpServerStatus', {
  description: 'Whether an MCP server\'s tools are offered to the agent.',
  values: {
    ACTIVE: { description: 'Its allowed tools are offered.' },
    QUARANTINED: { description: 'It changed (version or tool schemas) since it was pinned: nothing is offered until an owner approves the change.' },
    DISABLED: { description: 'Turned off by an owner: nothing is offered.' },
  } as const,
});
