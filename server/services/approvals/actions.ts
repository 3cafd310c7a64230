// Irreversible actions that run only once a person approves them (deleting an asset, forgetting a
// memory). A service that needs confirmation calls `requestApproval` with
// `kind: 'IRREVERSIBLE'` and `action: { type, ...params }`; when the approval is resolved as
// APPROVED, `resolveApproval` runs the handler registered here for `action.type` inside the same
// transaction as the decision, so the decision and its effect commit together (or neither does).
// A handler must be idempotent per approval and must re-check its preconditions (the thing may be
// gone by now): it returns an outcome that is stored on the approval and shown to the user.
import type { ApprovedActionHandler } from './action-handler.ts';
import { forgetEvidenceHandler, forgetMemoryHandler } from '../memory/request-forget.ts';
import { deleteObjectOnApproval } from '../objects/delete-object.ts';
import { approveMcpServerChange } from '../mcp/approve-change.ts';

export type { ApprovedActionContext, ApprovedActionHandler } from './action-handler.ts';


/**
 * One entry per irreversible action type. Each domain adds its handler here (objects,
 * memory); keep the handlers in their domain's service folder.
 */
export const approvedActionHandlers: Record<string, ApprovedActionHandler> = {
  // Long-term memory: forgetting a source or a memory, with everything derived from it.
  FORGET_EVIDENCE: forgetEvidenceHandler,
  FORGET_MEMORY: forgetMemoryHandler,
  /** Soft-deletes a workspace object. */
  DELETE_OBJECT: (action, ctx) => deleteObjectOnApproval(action, ctx),
  /** Pins an MCP server's changed tools (its quarantine card, a CHECKPOINT without a task). */
  'mcp.server.change': approveMcpServerChange,
  /**
   * A call to an MCP server's tool (runtime/mcp/bus.ts) waits for this card while still PENDING;
   * approving it requeues the task and the runtime sends the call then, with its journal key — so
   * nothing runs here.
   */
  MCP_TOOL_CALL: async () => ({ note: 'The task sends the call when it resumes.' }),
};
