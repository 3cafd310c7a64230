// What a person's message does to a run already under way (Task.inputPolicy, or the message's own):
//   QUEUE      read at the next model step: the running step's remaining calls run first (default);
//   INTERRUPT  at the next safe boundary (between two calls, never inside one) the step's calls that
//              have not started are SKIPPED; the model decides next, in the same turn, reading what
//              it had planned, that it was skipped, and the message;
//   ROLLBACK   like INTERRUPT, and the skipped remainder is dropped from what the model reads; the
//              turn ends and a new one starts with the message;
//   REJECT     refused at the door while the task is busy (services: send-message, signal-task).
// Work already started is never undone: a call that started keeps its resume rules, an ordered
// job keeps running and its result arrives in the inbox. Everything here is one fenced transaction,
// journaled with a TURN_INTERRUPTED event.
import { transactWithEvents } from '../channel/unit-of-work.ts';
import type { Interrupt } from '../store/journal/leases.ts';
import { skipPendingCalls } from '../store/journal/steps.ts';
import type { RuntimeDeps } from './deps.ts';
import { LeaseLost } from './errors.ts';
import { fence, type Claim } from './lease.ts';
import { endTurnInTx } from './turn-end.ts';

/** What the step's caller does next: go on to the model in this turn, or the turn was ended. */
export type InterruptOutcome = 'replan' | 'turn-ended';

/**
 * Skips `pending` (the step's calls not started yet, in order) for the instruction `interrupt`.
 * Returns 'turn-ended' for ROLLBACK (the next turn is queued in the same transaction).
 */
export async function interruptStep(rt: RuntimeDeps, claim: Claim, interrupt: Interrupt, pending: { id: string; name: string }[]): Promise<InterruptOutcome> {
  const rolledBack = interrupt.policy === 'ROLLBACK';
  const reason = rolledBack
    ? 'Not run: a new message rolled the turn back before this call started.'
    : 'Not run: a new message interrupted the step before this call started; read it and decide again.';
  const { value } = await transactWithEvents(rt, async (tx, emit) => {
    const status = await fence(tx, claim);
    const ids = pending.map((c) => c.id);
    const skipped = await skipPendingCalls(tx, ids, claim.generation, { reason, policy: interrupt.policy, inboxItemId: interrupt.inboxItemId, rolledBack });
    // Every listed call was PENDING when read and only this turn's writer moves them: fewer means
    // another writer got there first.
    if (skipped !== ids.length) throw new LeaseLost(claim.turnId, claim.generation);
    emit(claim.taskId, {
      type: 'TURN_INTERRUPTED',
      actor: { kind: 'SYSTEM' },
      payload: { turn: claim.number, policy: interrupt.policy, inboxItemId: interrupt.inboxItemId, skipped: ids, tools: pending.map((c) => c.name) },
    });
    if (!rolledBack) return 'replan' as const;
    await endTurnInTx(tx, emit, rt, claim, status, 'requeue', 'rolled back for a new message');
    return 'turn-ended' as const;
  });
  return value;
}
