import { pendingChangeApproval } from '../../services/mcp/list-servers.ts';
import { diffPins } from '../../services/mcp/pin-diff.ts';
import { builder } from '../builder.ts';
import { ApprovalRef, McpPendingChangeRef } from '../refs.ts';

McpPendingChangeRef.implement({
  description: 'What a quarantined MCP server offers now that differs from its pin, waiting for an owner.',
  fields: (t) => ({
    serverVersion: t.string({ description: 'The version the server reports now.', resolve: (c) => c.observed.serverVersion }),
    changedTools: t.stringList({ description: 'The tools that are new, gone or changed.', resolve: (c) => diffPins(c.server.pinned, c.observed).changedTools }),
    summary: t.string({ description: 'What changed, in one line.', resolve: (c) => diffPins(c.server.pinned, c.observed).reason }),
    approval: t.field({
      type: ApprovalRef,
      nullable: true,
      description: 'The card that asks the owners (approve with resolveApproval: the new version is pinned and the server active again); null once decided.',
      resolve: (c, _a, ctx) => pendingChangeApproval(ctx.deps, ctx.viewer, c.server),
    }),
  }),
});
