// The shape of an irreversible action's handler (see actions.ts for the registry). On its own so the
// domains that provide handlers (memory, objects) do not import the registry that imports them.
import type { Emit } from '../../channel/unit-of-work.ts';
import type { Tx } from '../../db/client.ts';
import type { Deps } from '../deps.ts';

export type ApprovedActionContext = {
  tx: Tx;
  emit: Emit;
  deps: Deps;
  approval: { id: string; workspaceId: string; taskId: string | null };
  /** The person who approved. */
  userId: string;
};

export type ApprovedActionHandler = (action: Record<string, unknown>, ctx: ApprovedActionContext) => Promise<Record<string, unknown>>;
