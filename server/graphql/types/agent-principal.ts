// An agent principal of a workspace: who the agent acts as, and the ceiling of what it may do.
// Members read it; owners change it (sub-agents narrower than their parent).
import { BUILTIN_SCOPES } from '../../domain/agent-policy.ts';
import { agentPrincipalHistory, loadAgentPrincipals } from '../../services/agents/list-agents.ts';
import { builder } from '../builder.ts';
import { AgentPrincipalChangeRef, AgentPrincipalRef, WorkspaceRef } from '../refs.ts';

builder.node(AgentPrincipalRef, {
  description:
    `An agent principal: the workspace's main agent (no parent) or a sub-agent. Every action the agent takes is checked against its scopes and recorded with its id, version and run. Scopes: ${BUILTIN_SCOPES.join(', ')}, and per tool of a connected app mcp:<server>:<tool> (mcp:<server>:* for every tool of one app, mcp:* for all).`,
  id: { resolve: (p) => p.id },
  loadManyWithoutCache: (ids, ctx) => loadAgentPrincipals(ctx.deps, ctx.viewer, ids),
  fields: (t) => ({
    workspace: t.field({ type: WorkspaceRef, description: 'The workspace it acts in.', resolve: (p, _a, ctx) => ctx.loaders.workspace.load(p.workspaceId).then((w) => w!) }),
    name: t.exposeString('name', { description: 'The name people see (the main agent starts as "Atelier").' }),
    version: t.exposeInt('version', { description: 'Bumped by every change; give it as baseVersion to updateAgentPrincipal. Events record the version the agent acted with.' }),
    isMain: t.boolean({ description: "True for the workspace's main agent (the one without a parent).", resolve: (p) => p.parentId === null }),
    parent: t.field({
      type: AgentPrincipalRef,
      nullable: true,
      description: 'The agent it is a sub-agent of (null for the main agent); its scopes are a strict subset of the parent\'s.',
      resolve: (p, _a, ctx) => (p.parentId ? ctx.loaders.agentPrincipal.load(p.parentId) : null),
    }),
    scopes: t.exposeStringList('scopes', { description: 'Its ceiling: what it may ever do, set by the workspace\'s owners. A run holds the part of it its task needs.' }),
    history: t.field({
      type: [AgentPrincipalChangeRef],
      description: 'Every change, newest first: who changed what.',
      resolve: (p, _a, ctx) => agentPrincipalHistory(ctx.deps, ctx.viewer, p),
    }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was created.', resolve: (p) => p.createdAt }),
    updatedAt: t.field({ type: 'DateTime', description: 'When it last changed.', resolve: (p) => p.updatedAt }),
  }),
});
