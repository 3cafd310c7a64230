// Asking an MCP server now what it offers (owners only). The same as the pin: nothing changes.
// Different: the server is quarantined — its tools are not offered — and the owners get a card to
// approve the new version (store/mcp/registry.ts quarantineMcpServer). Unreachable: refused with
// the reason, nothing changes.
import type { Viewer } from '../../auth/viewer.ts';
import type { McpPin } from '../../domain/mcp-safety.ts';
import { notFound } from '../../errors.ts';
import { getMcpServer, quarantineMcpServer, toView, type McpServerView } from '../../store/mcp/registry.ts';
import type { Deps } from '../deps.ts';
import { requireMcpAdmin } from './access.ts';
import { parseMcpInput, ServerIdInput } from './input.ts';
import { workspaceOfServer } from './list-servers.ts';
import { diffPins } from './pin-diff.ts';
import { discoverOrRefuse } from './register-server.ts';
import { ensureMcpSecretKey } from './secret-key.ts';

export async function refreshMcpServer(deps: Deps, viewer: Viewer, raw: unknown): Promise<McpServerView> {
  const input = parseMcpInput(ServerIdInput, raw);
  const workspaceId = await workspaceOfServer(deps, viewer, input.serverId);
  requireMcpAdmin(viewer, workspaceId);
  ensureMcpSecretKey(deps.config);
  const server = await getMcpServer(deps.prisma, workspaceId, input.serverId);
  if (!server) throw notFound('MCP server');
  const seen = await discoverOrRefuse(deps, workspaceId, server, server.transport === 'HTTP' ? 'url' : 'command');
  const diff = diffPins(server.pinned as McpPin | null, seen);
  if (!diff.same) {
    await quarantineMcpServer(deps.prisma, { serverId: server.id, workspaceId, expectedVersion: server.version, observed: seen, reason: diff.reason });
  }
  const row = await deps.prisma.mcpServer.findFirst({ where: { id: server.id, workspaceId } });
  if (!row) throw notFound('MCP server');
  return toView(row);
}
