// Steps handed to a remote A2A agent that answers by callback (runtime/a2a/delegate.ts, callback
// mode; http/a2a/callback.ts). Invariants:
//  - one delegation per tool call (unique workspace + call id): a call run again finds its row;
//  - the secret is kept only as its SHA-256; a callback is accepted only with the secret itself;
//  - `answeredAt` moves from null once (claimAnswer's conditional update): exactly one transaction
//    hands the answer to the task, whatever number of callbacks arrive, in whatever order.
import type { Db } from '../../db/client.ts';
import type { A2aDelegation } from '../../db/generated/client.ts';

export type DelegationRow = A2aDelegation;

export function findDelegationOfCall(db: Db, workspaceId: string, callId: string): Promise<DelegationRow | null> {
  return db.a2aDelegation.findUnique({ where: { workspaceId_callId: { workspaceId, callId } } });
}

/** The delegation a callback names (its id is in the callback URL; the secret proves the sender). */
export function findDelegation(db: Db, id: string): Promise<DelegationRow | null> {
  return db.a2aDelegation.findUnique({ where: { id } });
}

export function createDelegation(db: Db, d: { workspaceId: string; taskId: string; callId: string; agentName: string; secretHash: string }): Promise<DelegationRow> {
  return db.a2aDelegation.create({ data: d });
}

export async function recordRemoteTask(db: Db, workspaceId: string, id: string, remoteTaskId: string): Promise<void> {
  await db.a2aDelegation.updateMany({ where: { id, workspaceId }, data: { remoteTaskId } });
}

/** The state a callback reported, while no answer was handed over yet. */
export async function recordState(db: Db, workspaceId: string, id: string, state: string): Promise<void> {
  await db.a2aDelegation.updateMany({ where: { id, workspaceId, answeredAt: null }, data: { state } });
}

/** Marks the delegation answered; true only for the one caller that did it. */
export async function claimAnswer(db: Db, workspaceId: string, id: string, state: string): Promise<boolean> {
  const { count } = await db.a2aDelegation.updateMany({ where: { id, workspaceId, answeredAt: null }, data: { state, answeredAt: new Date() } });
  return count === 1;
}
