// Who may see and manage a workspace's MCP servers. Registering one hands the workspace's agent a
// third party's tools (and may hold a credential for it), so it is the owner's to set up, like
// webhooks. Members may read the list (what the agent can use is no secret to them); the bearer
// token is never readable by anyone. Another workspace's servers do not exist for the caller
// (NOT_FOUND, from requireWorkspace).
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { forbidden } from '../../errors.ts';

export function requireMcpAdmin(viewer: Viewer, workspaceId: string): void {
  const role = requireWorkspace(viewer, workspaceId, 'write');
  if (role !== 'OWNER') throw forbidden("Only a workspace owner can manage the workspace's tools from other apps");
}

export function requireMcpReader(viewer: Viewer, workspaceId: string): void {
  requireWorkspace(viewer, workspaceId, 'read');
}
