// Creating sub-agents and changing agent principals (owners only).
//
// Rules:
//  - A sub-agent's ceiling is a strict subset of its parent's (narrower, never equal), checked
//    under the parent's row lock; anything else is BAD_USER_INPUT and nothing is written.
//  - Narrowing a principal below one of its sub-agents is REFUSED (BAD_USER_INPUT naming the
//    sub-agents), never cascaded: an owner narrows the sub-agents first, so no ceiling changes
//    without its own recorded decision. Widening a sub-agent to its parent's ceiling or beyond is
//    refused likewise.
//  - A change names the version the owner saw (baseVersion); an older one is CONFLICT.
//  - Every change bumps the version and writes a history row (store/agents/principals.ts). A turn
//    reads its principal once, when it is claimed: a change applies from the next turn on.
import type { Viewer } from '../../auth/viewer.ts';
import { isStrictSubset, isSubset } from '../../domain/agent-policy.ts';
import { badInput, conflict, notFound } from '../../errors.ts';
import {
  ensureMainPrincipal,
  insertSubPrincipal,
  lockChildren,
  lockPrincipal,
  nameTaken,
  updatePrincipalRow,
  type AgentPrincipalView,
} from '../../store/agents/principals.ts';
import type { Deps } from '../deps.ts';
import { requireAgentAdmin } from './access.ts';
import { CreateInput, parseAgentInput, UpdateInput } from './input.ts';
import { workspaceOfPrincipal } from './list-agents.ts';

const list = (scopes: readonly string[]) => (scopes.length ? scopes.join(', ') : 'none');

/** Why `child` may not sit under `parent`, or null when it may. */
function subsetProblem(child: readonly string[], parent: AgentPrincipalView): string | null {
  if (!isSubset(child, parent.scopes)) {
    const extra = child.filter((s) => !isSubset([s], parent.scopes));
    return `scopes: a sub-agent may hold only what its parent "${parent.name}" holds; ${extra.slice(0, 5).join(', ')} ${extra.length === 1 ? 'is' : 'are'} not among its rights (${list(parent.scopes)})`;
  }
  if (!isStrictSubset(child, parent.scopes)) return `scopes: a sub-agent must hold less than its parent "${parent.name}"; leave out at least one of its rights (${list(parent.scopes)})`;
  return null;
}

export async function createAgentPrincipal(deps: Deps, viewer: Viewer, raw: unknown): Promise<AgentPrincipalView> {
  const input = parseAgentInput(CreateInput, raw);
  requireAgentAdmin(viewer, input.workspaceId);
  const main = await ensureMainPrincipal(deps.prisma, input.workspaceId);
  return deps.prisma.$transaction(async (tx) => {
    const parent = await lockPrincipal(tx, input.workspaceId, input.parentId ?? main.id);
    if (!parent) throw notFound('Agent');
    const problem = subsetProblem(input.scopes, parent);
    if (problem) throw badInput(problem, { argument: 'scopes' });
    if (await nameTaken(tx, input.workspaceId, input.name)) throw badInput(`name: the workspace already has an agent called "${input.name}"`, { argument: 'name' });
    return insertSubPrincipal(tx, { workspaceId: input.workspaceId, parentId: parent.id, name: input.name, scopes: input.scopes }, { kind: 'USER', id: viewer.userId }, `created under "${parent.name}" with: ${list(input.scopes)}`);
  });
}

export async function updateAgentPrincipal(deps: Deps, viewer: Viewer, raw: unknown): Promise<AgentPrincipalView> {
  const input = parseAgentInput(UpdateInput, raw);
  const head = await workspaceOfPrincipal(deps, viewer, input.principalId);
  requireAgentAdmin(viewer, head.workspaceId);
  if (input.name === undefined && input.scopes === undefined) throw badInput('Nothing to change: give a name or scopes', { argument: 'input' });
  return deps.prisma.$transaction(async (tx) => {
    // Parent first, then the principal, then its sub-agents (the one lock order).
    const parent = head.parentId ? await lockPrincipal(tx, head.workspaceId, head.parentId) : null;
    const current = await lockPrincipal(tx, head.workspaceId, input.principalId);
    if (!current) throw notFound('Agent');
    if (current.version !== input.baseVersion) {
      throw conflict(`This agent was changed meanwhile (it is now at version ${current.version}); reload it and make your change again`, { currentVersion: current.version });
    }
    const said: string[] = [];
    const change: { name?: string; scopes?: string[] } = {};
    if (input.name !== undefined && input.name !== current.name) {
      if (await nameTaken(tx, head.workspaceId, input.name, current.id)) throw badInput(`name: the workspace already has an agent called "${input.name}"`, { argument: 'name' });
      change.name = input.name;
      said.push(`name: ${input.name}`);
    }
    if (input.scopes !== undefined) {
      if (parent) {
        const problem = subsetProblem(input.scopes, parent);
        if (problem) throw badInput(problem, { argument: 'scopes' });
      }
      const children = await lockChildren(tx, head.workspaceId, current.id);
      const cut = children.filter((c) => !isStrictSubset(c.scopes, input.scopes!));
      if (cut.length) {
        throw badInput(
          `scopes: ${cut.map((c) => `"${c.name}"`).slice(0, 5).join(', ')} would no longer hold less than this agent; narrow ${cut.length === 1 ? 'that sub-agent' : 'those sub-agents'} first`,
          { argument: 'scopes' },
        );
      }
      const added = input.scopes.filter((s) => !current.scopes.includes(s));
      const removed = current.scopes.filter((s) => !input.scopes!.includes(s));
      if (added.length || removed.length) {
        change.scopes = input.scopes;
        said.push(`ceiling: ${[...added.map((s) => `+${s}`), ...removed.map((s) => `-${s}`)].join(' ')}`);
      }
    }
    // The same values again: nothing changes, no version is spent.
    if (!said.length) return current;
    return updatePrincipalRow(tx, current, change, { kind: 'USER', id: viewer.userId }, said.join('; '));
  });
}
