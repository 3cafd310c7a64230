// Workspace.agents: the workspace's agent principals, for every member (owners change them).
import { listAgentPrincipals } from '../../services/agents/list-agents.ts';
import { builder } from '../builder.ts';
import { AgentPrincipalRef, WorkspaceRef } from '../refs.ts';

builder.objectFields(WorkspaceRef, (t) => ({
  agents: t.field({
    type: [AgentPrincipalRef],
    description: 'The agent principals the workspace\'s work is done as: the main agent first, then its sub-agents by name.',
    resolve: (w, _a, ctx) => listAgentPrincipals(ctx.deps, ctx.viewer, w.id),
  }),
}));
