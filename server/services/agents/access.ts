// Who may see and manage a workspace's agent principals. Their ceilings decide what the agent may
// do with the workspace's works, money and connected apps, so they are the owners' to change;
// members read them (what the agent may do is no secret to the people it works for). Another
// workspace's principals do not exist for the caller (NOT_FOUND, from requireWorkspace).
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { forbidden } from '../../errors.ts';

export function requireAgentAdmin(viewer: Viewer, workspaceId: string): void {
  const role = requireWorkspace(viewer, workspaceId, 'write');
  if (role !== 'OWNER') throw forbidden("Only a workspace owner can change what the workspace's agents may do");
}

export function requireAgentReader(viewer: Viewer, workspaceId: string): void {
  requireWorkspace(viewer, workspaceId, 'read');
}
