// Agent principal mutations (workspace owners only, auth/mutation-policy.ts): thin resolvers over
// server/services/agents. A refused input is BAD_USER_INPUT with one sentence, and nothing is written.
import { createAgentPrincipal, updateAgentPrincipal } from '../../services/agents/change-agents.ts';
import { builder } from '../builder.ts';
import { parseGlobalId, parseOptionalGlobalId } from '../ids.ts';
import { CreateAgentPrincipalInput, UpdateAgentPrincipalInput } from '../inputs/agent-principal-input.ts';
import { AgentPrincipalPayload } from '../payloads/agent-principal-payload.ts';

/** An optional input field: null and absent both mean "not given". */
const given = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

builder.mutationFields((t) => ({
  createAgentPrincipal: t.field({
    type: AgentPrincipalPayload,
    description: "Create a sub-agent (owners only) whose ceiling is a strict subset of its parent's.",
    args: { input: t.arg({ type: CreateAgentPrincipalInput, required: true, description: 'The sub-agent.' }) },
    resolve: async (_r, { input }, ctx) => ({
      agent: await createAgentPrincipal(ctx.deps, ctx.viewer, {
        workspaceId: parseGlobalId(String(input.workspaceId), 'Workspace', 'input.workspaceId'),
        parentId: parseOptionalGlobalId(input.parentId, 'AgentPrincipal', 'input.parentId'),
        name: input.name,
        scopes: input.scopes,
      }),
    }),
  }),
  updateAgentPrincipal: t.field({
    type: AgentPrincipalPayload,
    description: "Rename an agent or change its ceiling (owners only), against the version you saw. Applies from the agent's next turn.",
    args: { input: t.arg({ type: UpdateAgentPrincipalInput, required: true, description: 'What to change.' }) },
    resolve: async (_r, { input }, ctx) => ({
      agent: await updateAgentPrincipal(ctx.deps, ctx.viewer, {
        principalId: parseGlobalId(String(input.agentId), 'AgentPrincipal', 'input.agentId'),
        baseVersion: input.baseVersion,
        name: given(input.name),
        scopes: given(input.scopes),
      }),
    }),
  }),
}));
