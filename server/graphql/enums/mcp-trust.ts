import { builder } from '../builder.ts';

export const McpTrustEnum = builder.enumType('McpTrust', {
  description: 'How far the workspace trusts an MCP server\'s own description of its tools.',
  values: {
    TRUSTED: { description: 'Its tools run as their safety says; destructive ones still ask a person first.' },
    UNTRUSTED: { description: 'Every call that is not read-only asks a person first.' },
  } as const,
});
