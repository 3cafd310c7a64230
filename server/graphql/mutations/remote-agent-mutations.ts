// Remote A2A agents (owners only, auth/mutation-policy.ts): thin resolvers over services/a2a.
import { registerRemoteAgent, removeRemoteAgent } from '../../services/a2a/remote-agents.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { RegisterRemoteAgentInput, RemoveRemoteAgentInput } from '../inputs/register-remote-agent-input.ts';
import { RemoteAgentPayload } from '../payloads/remote-agent-payload.ts';

builder.mutationFields((t) => ({
  registerRemoteAgent: t.field({
    type: RemoteAgentPayload,
    description:
      "Let the workspace's agent hand steps to a remote A2A agent (owners only). Nothing is fetched now: its card is verified against the registered key before every delegation. Its hosts go on the workspace's egress list.",
    args: { input: t.arg({ type: RegisterRemoteAgentInput, required: true, description: 'The agent.' }) },
    resolve: async (_r, { input }, ctx) => ({
      remoteAgent: await registerRemoteAgent(ctx.deps, ctx.viewer, {
        workspaceId: parseGlobalId(String(input.workspaceId), 'Workspace', 'input.workspaceId'),
        name: input.name,
        url: input.url,
        ...(input.jwksUrl != null ? { jwksUrl: input.jwksUrl } : {}),
        ...(input.publicJwk != null ? { publicJwk: input.publicJwk as never } : {}),
        ...(input.allowedSkills != null ? { allowedSkills: input.allowedSkills } : {}),
      }),
    }),
  }),
  removeRemoteAgent: t.field({
    type: RemoteAgentPayload,
    description: 'Remove a registered remote agent (owners only): the next delegation to it is refused. Its hosts stay on the egress list until an owner revokes them.',
    args: { input: t.arg({ type: RemoveRemoteAgentInput, required: true, description: 'The agent.' }) },
    resolve: async (_r, { input }, ctx) => ({
      remoteAgent: await removeRemoteAgent(ctx.deps, ctx.viewer, { remoteAgentId: parseGlobalId(String(input.remoteAgentId), 'RemoteAgent', 'input.remoteAgentId') }),
    }),
  }),
}));
