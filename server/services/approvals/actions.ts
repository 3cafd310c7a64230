// Irreversible actions that run only once a person approves them (deleting an asset, forgetting a
// memory). A service that needs confirmation calls `requestApproval` with
// `kind: 'IRREVERSIBLE'` and `action: { type, ...params }`; when the approval is resolved as
// APPROVED, `resolveApproval` runs the handler registered here for `action.type` inside the same
// transaction as the decision, so the decision and its effect commit together (or neither does).
// A handler must be idempotent per approval and must re-check its preconditions (the thing may be
// gone by now): it returns an outcome that is stored on the approval and shown to the user.
import type { Emit } from '../../channel/unit-of-work.ts';
import type { Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { forgetEvidenceHandler, forgetMemoryHandler } from '../memory/request-forget.ts';
import { deleteObjectOnApproval } from '../objects/delete-object.ts';

export type ApprovedActionContext = {
  tx: Tx;
  emit: Emit;
  deps: Deps;
  approval: { id: string; workspaceId: string; taskId: string | null };
  /** The person who approved. */
  userId: string;
};

export type ApprovedActionHandler = (action: Record<string, unknown>, ctx: ApprovedActionContext) => Promise<Record<string, unknown>>;

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
};
