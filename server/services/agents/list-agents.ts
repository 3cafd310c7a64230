// Reading a workspace's agent principals: every member may read them (what the agent may do). The
// main agent is created on first read, like on the first turn, so the list is never empty.
import type { Viewer } from '../../auth/viewer.ts';
import { notFound } from '../../errors.ts';
import { ensureMainPrincipal, listPrincipals, principalHead, principalHistory, principalsByIds, type AgentPrincipalView } from '../../store/agents/principals.ts';
import { inKeyOrder, uuidsOf } from '../batch.ts';
import type { Deps } from '../deps.ts';
import { requireAgentReader } from './access.ts';

export type { AgentPrincipalView, PrincipalChangeRow } from '../../store/agents/principals.ts';

export async function listAgentPrincipals(deps: Deps, viewer: Viewer, workspaceId: string): Promise<AgentPrincipalView[]> {
  requireAgentReader(viewer, workspaceId);
  await ensureMainPrincipal(deps.prisma, workspaceId);
  return listPrincipals(deps.prisma, workspaceId);
}

/** Principals by id for node(id) and event actors: those of the viewer's workspaces, the others null. */
export async function loadAgentPrincipals(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(AgentPrincipalView | null)[]> {
  const rows = await principalsByIds(deps.prisma, [...viewer.memberships.keys()], uuidsOf(ids));
  return inKeyOrder(ids, rows);
}

/** The principal's workspace, for authorising before anything else (NOT_FOUND for ids the caller cannot see). */
export async function workspaceOfPrincipal(deps: Deps, viewer: Viewer, id: string): Promise<{ workspaceId: string; parentId: string | null }> {
  const head = await principalHead(deps.prisma, [...viewer.memberships.keys()], id);
  if (!head) throw notFound('Agent');
  return head;
}

/** The principal's changes, newest first. */
export async function agentPrincipalHistory(deps: Deps, viewer: Viewer, p: AgentPrincipalView) {
  requireAgentReader(viewer, p.workspaceId);
  return principalHistory(deps.prisma, p.workspaceId, [p.id]);
}
