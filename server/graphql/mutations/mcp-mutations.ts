// MCP server mutations (workspace owners only, auth/mutation-policy.ts): thin resolvers over
// server/services/mcp. A refused input is BAD_USER_INPUT with one sentence, and nothing is written.
import { refreshMcpServer } from '../../services/mcp/refresh-server.ts';
import { registerMcpServer } from '../../services/mcp/register-server.ts';
import { removeMcpServer } from '../../services/mcp/remove-server.ts';
import { updateMcpServer } from '../../services/mcp/update-server.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { RefreshMcpServerInput, RemoveMcpServerInput } from '../inputs/mcp-server-id-input.ts';
import { RegisterMcpServerInput } from '../inputs/mcp-register-server-input.ts';
import { UpdateMcpServerInput } from '../inputs/mcp-update-server-input.ts';
import { McpServerPayload, RemoveMcpServerPayload } from '../payloads/mcp-server-payload.ts';

const serverId = (id: unknown) => parseGlobalId(String(id), 'McpServer', 'input.serverId');
/** An optional input field: null and absent both mean "not given". */
const given = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

builder.mutationFields((t) => ({
  registerMcpServer: t.field({
    type: McpServerPayload,
    description: 'Register an MCP server (owners only): Atelier connects, reads its tools and pins them. An unreachable server is refused with the reason and nothing is stored.',
    args: { input: t.arg({ type: RegisterMcpServerInput, required: true, description: 'The server.' }) },
    resolve: async (_r, { input }, ctx) => ({
      server: await registerMcpServer(ctx.deps, ctx.viewer, {
        workspaceId: parseGlobalId(String(input.workspaceId), 'Workspace', 'input.workspaceId'),
        name: input.slug,
        title: given(input.title),
        transport: given(input.transport),
        url: given(input.url),
        command: given(input.command),
        args: given(input.args),
        trust: given(input.trust),
        priceCentsPerCall: given(input.priceCentsPerCall),
        domains: given(input.domains),
        authSecret: given(input.authSecret),
      }),
    }),
  }),
  updateMcpServer: t.field({
    type: McpServerPayload,
    description: "Change an MCP server's settings (owners only), against the version you saw.",
    args: { input: t.arg({ type: UpdateMcpServerInput, required: true, description: 'What to change.' }) },
    resolve: async (_r, { input }, ctx) => ({
      server: await updateMcpServer(ctx.deps, ctx.viewer, {
        serverId: serverId(input.serverId),
        baseVersion: input.baseVersion,
        title: given(input.title),
        trust: given(input.trust),
        allowedTools: input.allowAllTools ? null : given(input.allowedTools),
        toolOverrides: given(input.toolOverrides)?.map((o) => ({ tool: o.tool, safety: o.safety ?? null, destructive: o.destructive ?? null, priceCents: o.priceCents ?? null })),
        priceCentsPerCall: input.clearPrice ? null : given(input.priceCentsPerCall),
        domains: given(input.domains),
        authSecret: given(input.authSecret),
        clearAuthSecret: given(input.clearAuthSecret),
        status: given(input.status),
      }),
    }),
  }),
  removeMcpServer: t.field({
    type: RemoveMcpServerPayload,
    description: 'Remove an MCP server with its history (owners only); its tools are no longer offered.',
    args: { input: t.arg({ type: RemoveMcpServerInput, required: true, description: 'The server.' }) },
    resolve: async (_r, { input }, ctx) => ({ serverId: await removeMcpServer(ctx.deps, ctx.viewer, { serverId: serverId(input.serverId) }) }),
  }),
  refreshMcpServer: t.field({
    type: McpServerPayload,
    description: 'Ask an MCP server now what it offers (owners only): the same as pinned changes nothing; a change quarantines it and asks the owners to approve the new version.',
    args: { input: t.arg({ type: RefreshMcpServerInput, required: true, description: 'The server.' }) },
    resolve: async (_r, { input }, ctx) => ({ server: await refreshMcpServer(ctx.deps, ctx.viewer, { serverId: serverId(input.serverId) }) }),
  }),
}));
