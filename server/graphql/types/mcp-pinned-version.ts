import { builder } from '../builder.ts';
import { McpPinnedVersionRef } from '../refs.ts';

McpPinnedVersionRef.implement({
  description: 'What an MCP server said it was when its tools were pinned (at registration or an approved change).',
  fields: (t) => ({
    serverName: t.exposeString('serverName', { description: 'The name the server gives itself.' }),
    serverVersion: t.exposeString('serverVersion', { description: 'The version the server reported.' }),
    protocolVersion: t.exposeString('protocolVersion', { description: 'The MCP protocol version agreed with it.' }),
  }),
});
