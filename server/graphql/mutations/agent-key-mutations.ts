// Rotating the key that signs a workspace's agent credentials (workspace owners only,
// auth/mutation-policy.ts): a thin resolver over services/agents/signing-keys.ts.
import { rotateAgentSigningKey } from '../../services/agents/signing-keys.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { AgentSigningKeyPayload } from '../payloads/agent-signing-key-payload.ts';

builder.mutationFields((t) => ({
  rotateAgentSigningKey: t.field({
    type: AgentSigningKeyPayload,
    description:
      "Give the workspace a new key for signing its agents' run credentials (owners only). New credentials are signed with it at once; the previous key stays in the JWKS and verifies what it signed until that expires (10 minutes), then verifies nothing.",
    args: { workspaceId: t.arg.id({ required: true, description: 'The workspace.' }) },
    resolve: (_r, { workspaceId }, ctx) => rotateAgentSigningKey(ctx.deps, ctx.viewer, { workspaceId: parseGlobalId(String(workspaceId), 'Workspace', 'workspaceId') }),
  }),
}));
