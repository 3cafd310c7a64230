// Removing an MCP server (owners only): its tools are no longer offered from the next step on, its
// history goes with it, and a change card still waiting for it is cancelled.
import type { Viewer } from '../../auth/viewer.ts';
import { notFound } from '../../errors.ts';
import { deleteMcpServerRow } from '../../store/mcp/servers.ts';
import type { Deps } from '../deps.ts';
import { requireMcpAdmin } from './access.ts';
import { parseMcpInput, ServerIdInput } from './input.ts';
import { workspaceOfServer } from './list-servers.ts';

export async function removeMcpServer(deps: Deps, viewer: Viewer, raw: unknown): Promise<string> {
  const input = parseMcpInput(ServerIdInput, raw);
  const workspaceId = await workspaceOfServer(deps, viewer, input.serverId);
  requireMcpAdmin(viewer, workspaceId);
  if (!(await deps.prisma.$transaction((tx) => deleteMcpServerRow(tx, workspaceId, input.serverId)))) throw notFound('MCP server');
  return input.serverId;
}
