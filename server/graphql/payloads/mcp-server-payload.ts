import { encodeGlobalID } from '@pothos/plugin-relay';
import type { McpServerView } from '../../services/mcp/list-servers.ts';
import { builder } from '../builder.ts';
import { McpServerRef } from '../refs.ts';

export const McpServerPayload = builder.objectRef<{ server: McpServerView }>('McpServerPayload').implement({
  description: 'An MCP server after a change.',
  fields: (t) => ({ server: t.field({ type: McpServerRef, description: 'The server as it is now.', resolve: (p) => p.server }) }),
});

export const RemoveMcpServerPayload = builder.objectRef<{ serverId: string }>('RemoveMcpServerPayload').implement({
  description: 'A removed MCP server.',
  fields: (t) => ({ removedServerId: t.id({ description: 'The id the server had.', resolve: (p) => encodeGlobalID('McpServer', p.serverId) }) }),
});
