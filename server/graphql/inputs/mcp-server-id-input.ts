import { builder } from '../builder.ts';

export const RemoveMcpServerInput = builder.inputType('RemoveMcpServerInput', {
  description: 'The MCP server to remove.',
  fields: (t) => ({ serverId: t.id({ required: true, description: 'The server.' }) }),
});

export const RefreshMcpServerInput = builder.inputType('RefreshMcpServerInput', {
  description: 'The MCP server to ask again what it offers.',
  fields: (t) => ({ serverId: t.id({ required: true, description: 'The server.' }) }),
});
