import { builder } from '../builder.ts';

export const McpTransportEnum = builder.enumType('McpTransport', {
  description: 'How Atelier talks to an MCP server.',
  values: {
    HTTP: { description: 'Over the network (Streamable HTTP) at the server\'s url.' },
    STDIO: { description: 'As a command started on the Atelier server (only commands the operator allows).' },
  } as const,
});
