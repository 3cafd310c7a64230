import { builder } from '../builder.ts';

export const EgressHostSourceEnum = builder.enumType('EgressHostSource', {
  description: 'How a host came onto the workspace\'s list of allowed hosts.',
  values: {
    OWNER: { description: 'An owner added it (allowEgressHost).' },
    MCP_SERVER: { description: 'Recorded when an MCP server reached over HTTP was registered at this host.' },
    WEBHOOK: { description: 'Recorded when a webhook endpoint at this host was created or moved here.' },
    A2A_AGENT: { description: 'Recorded when a remote agent at this host was registered for delegation.' },
  } as const,
});
