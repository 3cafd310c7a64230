// The workspace's allowed hosts for outbound calls (owners only, auth/mutation-policy.ts): thin
// resolvers over server/services/egress. A refused input is BAD_USER_INPUT with one sentence.
import { allowEgressHost, revokeEgressHost } from '../../services/egress/manage-hosts.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { AllowEgressHostInput } from '../inputs/allow-egress-host-input.ts';
import { RevokeEgressHostInput } from '../inputs/revoke-egress-host-input.ts';
import { EgressHostPayload } from '../payloads/egress-host-payload.ts';

builder.mutationFields((t) => ({
  allowEgressHost: t.field({
    type: EgressHostPayload,
    description: "Let the workspace's outbound calls reach a host and port (owners only). Adding a host that is listed already returns its entry.",
    args: { input: t.arg({ type: AllowEgressHostInput, required: true, description: 'The host.' }) },
    resolve: async (_r, { input }, ctx) => ({
      entry: await allowEgressHost(ctx.deps, ctx.viewer, {
        workspaceId: parseGlobalId(String(input.workspaceId), 'Workspace', 'input.workspaceId'),
        host: input.host,
        port: input.port ?? null,
        ...(input.note != null ? { note: input.note } : {}),
      }),
    }),
  }),
  revokeEgressHost: t.field({
    type: EgressHostPayload,
    description: 'Remove a host from the list (owners only): calls to it are refused from the next one on, including those of the MCP server or webhook that recorded it.',
    args: { input: t.arg({ type: RevokeEgressHostInput, required: true, description: 'The entry.' }) },
    resolve: async (_r, { input }, ctx) => ({
      entry: await revokeEgressHost(ctx.deps, ctx.viewer, { entryId: parseGlobalId(String(input.entryId), 'EgressHost', 'input.entryId') }),
    }),
  }),
}));
