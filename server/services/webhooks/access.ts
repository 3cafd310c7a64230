// Who may see and manage a workspace's webhooks: its owners. An endpoint carries the workspace's
// events to a third party and its secrets sign them, so it is the owner's to set up, like the
// workspace's spending settings. Another workspace's webhooks do not exist for the caller
// (NOT_FOUND, from requireWorkspace); a member or viewer of this one is refused (FORBIDDEN).
import { requireWorkspace, visibleWorkspaceIds } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { forbidden } from '../../errors.ts';

export function requireWebhookAdmin(viewer: Viewer, workspaceId: string): void {
  const role = requireWorkspace(viewer, workspaceId, 'write');
  if (role !== 'OWNER') throw forbidden("Only a workspace owner can manage the workspace's webhooks");
}

export function requireWebhookReader(viewer: Viewer, workspaceId: string): void {
  const role = requireWorkspace(viewer, workspaceId, 'read');
  if (role !== 'OWNER') throw forbidden("Only a workspace owner can see the workspace's webhooks");
}

/** Workspaces whose webhooks the viewer may read (node(id) of anything else is null). */
export function webhookWorkspaceIds(viewer: Viewer): string[] {
  return visibleWorkspaceIds(viewer).filter((id) => viewer.memberships.get(id) === 'OWNER');
}
