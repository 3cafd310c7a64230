// Reading a workspace's MCP servers: every member may read the list (what the agent can use);
// the bearer token is never part of it. Ids of servers the viewer cannot see are NOT_FOUND.
import type { Viewer } from '../../auth/viewer.ts';

export type { McpPin, McpServerView, PinnedTool } from '../../store/mcp/registry.ts';
import { notFound } from '../../errors.ts';
import { pendingChangeCardId, toView, type McpServerView } from '../../store/mcp/registry.ts';
import { inKeyOrder, uuidsOf } from '../batch.ts';
import { loadApprovals } from '../approvals/load-approvals.ts';
import { mcpServerHistory } from '../../store/mcp/servers.ts';
import type { Deps } from '../deps.ts';
import { requireMcpReader } from './access.ts';

export async function listMcpServers(deps: Deps, viewer: Viewer, workspaceId: string): Promise<McpServerView[]> {
  requireMcpReader(viewer, workspaceId);
  const rows = await deps.prisma.mcpServer.findMany({ where: { workspaceId }, orderBy: [{ name: 'asc' }] });
  return rows.map(toView);
}

/** The servers' history rows, newest first, grouped by server id (one query for a list). */
export async function mcpServerHistories(deps: Deps, viewer: Viewer, workspaceId: string, serverIds: readonly string[]) {
  requireMcpReader(viewer, workspaceId);
  const rows = await mcpServerHistory(deps.prisma, workspaceId, serverIds);
  const by = new Map<string, typeof rows>();
  for (const r of rows) by.set(r.serverId, [...(by.get(r.serverId) ?? []), r]);
  return serverIds.map((id) => by.get(id) ?? []);
}

/** The server's workspace, for authorising before anything else is read (NOT_FOUND for ids the caller cannot see). */
export async function workspaceOfServer(deps: Deps, viewer: Viewer, serverId: string): Promise<string> {
  const s = await deps.prisma.mcpServer.findFirst({ where: { id: serverId, workspaceId: { in: [...viewer.memberships.keys()] } }, select: { workspaceId: true } });
  if (!s) throw notFound('MCP server');
  return s.workspaceId;
}

/** Servers by id for node(id): those of workspaces the viewer belongs to, the others null. */
export async function loadMcpServers(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(McpServerView | null)[]> {
  const uuids = uuidsOf(ids);
  const rows = uuids.length ? await deps.prisma.mcpServer.findMany({ where: { id: { in: uuids }, workspaceId: { in: [...viewer.memberships.keys()] } } }) : [];
  return inKeyOrder(ids, rows.map(toView));
}

/** The approval card asking the owners about the server's change, while one waits. */
export async function pendingChangeApproval(deps: Deps, viewer: Viewer, server: McpServerView) {
  requireMcpReader(viewer, server.workspaceId);
  const id = server.status === 'QUARANTINED' ? await pendingChangeCardId(deps.prisma, server.workspaceId, server.id) : null;
  return id ? ((await loadApprovals(deps, viewer, [id]))[0] ?? null) : null;
}
