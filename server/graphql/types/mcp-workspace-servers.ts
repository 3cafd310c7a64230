// Workspace.mcpServers: the workspace's MCP servers, for every member (owners change them).
import { listMcpServers } from '../../services/mcp/list-servers.ts';
import { builder } from '../builder.ts';
import { McpServerRef, WorkspaceRef } from '../refs.ts';

builder.objectFields(WorkspaceRef, (t) => ({
  mcpServers: t.field({
    type: [McpServerRef],
    description: "The MCP servers whose tools the workspace's agent may use (tools from other apps), by name.",
    resolve: (w, _a, ctx) => listMcpServers(ctx.deps, ctx.viewer, w.id),
  }),
}));
