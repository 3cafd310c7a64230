// An MCP server registered in a workspace (tools from other apps). Members read it; owners change
// it. The bearer token is never part of it: only whether one is set.
import { loadMcpServers, mcpServerHistories } from '../../services/mcp/list-servers.ts';
import { builder } from '../builder.ts';
import { McpServerStatusEnum } from '../enums/mcp-server-status.ts';
import { McpTransportEnum } from '../enums/mcp-transport.ts';
import { McpTrustEnum } from '../enums/mcp-trust.ts';
import { McpPendingChangeRef, McpPinnedVersionRef, McpServerChangeRef, McpServerRef, McpToolRef, WorkspaceRef } from '../refs.ts';

builder.node(McpServerRef, {
  description:
    "An MCP server whose tools the workspace's agent may use, held to what it offered when it was pinned: a server that changes its version or tool schemas is quarantined until an owner approves the change. Owners register and change servers; members see them.",
  id: { resolve: (s) => s.id },
  loadManyWithoutCache: (ids, ctx) => loadMcpServers(ctx.deps, ctx.viewer, ids),
  fields: (t) => ({
    workspace: t.field({ type: WorkspaceRef, description: 'The workspace it belongs to.', resolve: (s, _a, ctx) => ctx.loaders.workspace.load(s.workspaceId).then((w) => w!) }),
    slug: t.exposeString('name', { description: 'Short name, unique in the workspace; the agent sees its tools as <slug>__<tool>.' }),
    title: t.exposeString('title', { description: 'The name people see.' }),
    transport: t.field({ type: McpTransportEnum, description: 'How Atelier reaches it.', resolve: (s) => s.transport }),
    url: t.exposeString('url', { nullable: true, description: 'Its address (HTTP servers).' }),
    command: t.exposeString('command', { nullable: true, description: 'The command that starts it (STDIO servers).' }),
    args: t.exposeStringList('args', { description: 'The command\'s arguments (STDIO servers).' }),
    trust: t.field({ type: McpTrustEnum, description: 'Whether its calls that change something ask a person first (UNTRUSTED) or run as their safety says (TRUSTED).', resolve: (s) => s.trust }),
    status: t.field({ type: McpServerStatusEnum, description: 'Whether its tools are offered now.', resolve: (s) => s.status }),
    quarantineReason: t.exposeString('quarantineReason', { nullable: true, description: 'Why it is quarantined, in one line (null unless QUARANTINED).' }),
    pinnedVersion: t.field({ type: McpPinnedVersionRef, nullable: true, description: 'What the server said it was when its tools were pinned.', resolve: (s) => s.pinned }),
    tools: t.field({
      type: [McpToolRef],
      description: 'Its pinned tools, by name, each with whether the agent may use it and how safe a call is.',
      resolve: (s) => (s.pinned?.tools ?? []).map((tool) => ({ tool, server: s })),
    }),
    history: t.field({
      type: [McpServerChangeRef],
      description: 'Every change of the server, newest first: who changed what.',
      resolve: async (s, _a, ctx) => (await mcpServerHistories(ctx.deps, ctx.viewer, s.workspaceId, [s.id]))[0] ?? [],
    }),
    version: t.exposeInt('version', { description: 'Bumped by every change; give it as baseVersion to updateMcpServer.' }),
    hasAuthSecret: t.exposeBoolean('hasAuthSecret', { description: 'Whether a bearer token is set (the token itself is never shown).' }),
    priceCentsPerCall: t.exposeInt('priceCentsPerCall', { nullable: true, description: 'What a call costs, in cents, for every tool without its own price (null: free).' }),
    domains: t.exposeStringList('domains', { description: 'The task domains its tools belong to (empty: offered in every task).' }),
    pendingChange: t.field({
      type: McpPendingChangeRef,
      nullable: true,
      description: 'While quarantined (or turned off after a change): what the server offers now that differs from the pin.',
      resolve: (s) => (s.observed ? { server: s, observed: s.observed } : null),
    }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was registered.', resolve: (s) => s.createdAt }),
    updatedAt: t.field({ type: 'DateTime', description: 'When it last changed.', resolve: (s) => s.updatedAt }),
  }),
});
