// WorkspaceSettings.egressHosts: where the workspace's outbound calls may go (owners only).
import { listWorkspaceEgressHosts } from '../../services/egress/manage-hosts.ts';
import { builder } from '../builder.ts';
import { EgressHostRef, WorkspaceSettingsRef } from '../refs.ts';

builder.objectFields(WorkspaceSettingsRef, (t) => ({
  egressHosts: t.field({
    type: [EgressHostRef],
    description:
      "The hosts the workspace's outbound calls may reach (owners only; anyone else: FORBIDDEN), ordered by host. Registering an MCP server or a webhook endpoint adds its host; owners add and revoke entries with allowEgressHost and revokeEgressHost.",
    resolve: (s, _a, ctx) => listWorkspaceEgressHosts(ctx.deps, ctx.viewer, s.workspaceId),
  }),
}));
