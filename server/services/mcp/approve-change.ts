// The quarantine card's approval ('mcp.server.change'): run by resolveApproval in the decision's
// transaction. APPROVE pins what discovery observed and makes the server ACTIVE; REJECT runs nothing
// and leaves it QUARANTINED (the owner can remove or turn it off). Only an owner's approval counts
// (a member who may approve task cards may not change which third-party tools the agent gets).
// Idempotent and re-checked: a server removed or changed again since the card was filed is left as
// it is, and the outcome says so.
import type { ApprovedActionHandler } from '../approvals/action-handler.ts';
import { forbidden } from '../../errors.ts';
import { repinMcpServer } from '../../store/mcp/servers.ts';

export const approveMcpServerChange: ApprovedActionHandler = async (action, ctx) => {
  const role = await ctx.tx.membership.findFirst({ where: { workspaceId: ctx.approval.workspaceId, userId: ctx.userId }, select: { role: true } });
  if (role?.role !== 'OWNER') throw forbidden('Only a workspace owner can approve a change of a server’s tools');
  const out = await repinMcpServer(ctx.tx, {
    workspaceId: ctx.approval.workspaceId,
    id: String(action.serverId ?? ''),
    version: Number(action.version ?? 0),
    actor: { kind: 'USER', id: ctx.userId },
  });
  if (out.kind === 'repinned') return { applied: true, message: 'The new version is pinned and its tools are offered again', version: out.row.version };
  if (out.kind === 'gone') return { applied: false, message: 'The server was removed; nothing to approve' };
  return { applied: false, message: 'The server changed since this card was made; nothing was applied' };
};
