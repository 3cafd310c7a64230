// Authorisation rules, in one place. Reading needs the READ scope and membership; writing needs
// WRITE and a role above VIEWER; approving needs APPROVE and a role above VIEWER. Something in a
// workspace the caller is not a member of does not exist for them (NOT_FOUND, never FORBIDDEN), so
// ids of other workspaces leak nothing.
import { AppError, notFound } from '../errors.ts';
import type { Role, Scope, Viewer } from './viewer.ts';

export type Access = 'read' | 'write' | 'approve';

const scopeFor: Record<Access, Scope> = { read: 'READ', write: 'WRITE', approve: 'APPROVE' };
const rolesFor: Record<Access, readonly Role[]> = {
  read: ['OWNER', 'MEMBER', 'VIEWER'],
  write: ['OWNER', 'MEMBER'],
  approve: ['OWNER', 'MEMBER'],
};

export function canSeeWorkspace(viewer: Viewer, workspaceId: string): boolean {
  return viewer.memberships.has(workspaceId) && viewer.scopes.has('READ');
}

/** Throws unless the viewer may perform `access` in the workspace; returns the viewer's role. */
export function requireWorkspace(viewer: Viewer, workspaceId: string, access: Access, what = 'Workspace'): Role {
  const role = viewer.memberships.get(workspaceId);
  if (!role || !viewer.scopes.has('READ')) throw notFound(what);
  if (!viewer.scopes.has(scopeFor[access])) {
    throw new AppError('FORBIDDEN', `This token lacks the ${scopeFor[access].toLowerCase()} scope`);
  }
  if (!rolesFor[access].includes(role)) {
    throw new AppError('FORBIDDEN', `A ${role.toLowerCase()} cannot ${access} in this workspace`);
  }
  return role;
}

export function visibleWorkspaceIds(viewer: Viewer): string[] {
  return viewer.scopes.has('READ') ? [...viewer.memberships.keys()] : [];
}

/** The single workspace of a viewer, for entry points that take no workspace argument. */
export function defaultWorkspaceId(viewer: Viewer): string {
  const ids = visibleWorkspaceIds(viewer);
  if (ids.length === 1) return ids[0]!;
  if (ids.length === 0) throw notFound('Workspace');
  throw new AppError('BAD_USER_INPUT', 'This credential spans several workspaces: pass workspaceId');
}
