// The execution journal: a step's decision with its pending calls and the inbox it consumed, then
// each call's start and outcome — every write fenced (lease.ts) in its own transaction, with the
// events that describe it. A decision is committed before any of its tools runs, and a call is
// STARTED before it runs, so a takeover always knows what may already have happened.
import { transactWithEvents, type Emit } from '../channel/unit-of-work.ts';
import type { Tx } from '../db/client.ts';
import type { Decision } from '../domain/history.ts';
import { consumeChangeNotices, consumeInboxItems } from '../store/journal/inbox.ts';
import { insertStep, insertToolCalls, recordCallOutcome, startCall, toolCallId, type CallOutcome, type NewStep } from '../store/journal/steps.ts';
import { countToolDenials } from '../store/journal/denials.ts';
import type { RuntimeDeps } from './deps.ts';
import type { Attempt } from './policy.ts';
import { InboxChanged, LeaseLost } from './errors.ts';
import { fence, type Claim } from './lease.ts';
import { endTurnInTx } from './turn-end.ts';

export type { CallOutcome, Decision };

/**
 * Commits a model decision, its pending tool calls and the inbox items it consumed, in ONE
 * transaction, before any tool runs.
 */
export async function commitStep(
  rt: RuntimeDeps,
  claim: Claim,
  // The step row as the store writes it (routing: which model role answered and why, the tool-set
  // decision and the context size); the claim supplies turn, task and generation.
  step: Omit<NewStep, 'turnId' | 'taskId' | 'generation'> & {
    consumedInboxIds: string[];
    /** Change notices this step's model input carried (shared workspace): consumed with the step. */
    consumedNoticeIds?: string[];
    safetyOf: (tool: string) => string;
  },
) {
  const { value } = await transactWithEvents(rt, async (tx, emit) => {
    await fence(tx, claim);
    const row = await insertStep(tx, {
      turnId: claim.turnId,
      taskId: claim.taskId,
      index: step.index,
      decision: step.decision,
      requestDigest: step.requestDigest,
      request: step.request,
      model: step.model,
      usage: step.usage,
      routing: step.routing,
      costCents: step.costCents,
      generation: claim.generation,
    });
    if (step.decision.toolCalls.length) {
      await insertToolCalls(
        tx,
        { id: row.id, turnId: claim.turnId, taskId: claim.taskId, workspaceId: claim.workspaceId, index: step.index, generation: claim.generation },
        step.decision.toolCalls,
        step.safetyOf,
      );
    }
    const by = { turnId: claim.turnId, step: step.index };
    let consumed = 0;
    if (step.consumedInboxIds.length) {
      consumed = await consumeInboxItems(tx, step.consumedInboxIds, by);
      if (consumed !== step.consumedInboxIds.length) {
        // An item was withdrawn while the model ran: this decision rests on a message the user took
        // back. Nothing is committed; the step is asked again.
        throw new InboxChanged(claim.taskId);
      }
    }
    // Notices are never withdrawn, and the fence (task row lock) keeps any other step of this task
    // from consuming them meanwhile: exactly the notices the model read are marked, exactly once.
    if (step.consumedNoticeIds?.length) await consumeChangeNotices(tx, step.consumedNoticeIds, by);
    emit(claim.taskId, {
      type: 'STEP_DECIDED',
      actor: { kind: 'AGENT' },
      payload: {
        turn: claim.number,
        step: step.index,
        message: step.decision.content.slice(0, 2000),
        toolCalls: step.decision.toolCalls.map((c, i) => ({ id: toolCallId(claim.turnId, step.index, i), name: c.name })),
        consumedInbox: consumed,
      },
    });
    emit(claim.taskId, {
      type: 'MODEL_CALL',
      actor: { kind: 'AGENT' },
      redaction: 'PRIVATE',
      payload: { turn: claim.number, step: step.index, model: step.model, requestDigest: step.requestDigest, usage: step.usage ?? null, routing: step.routing ?? null, costCents: step.costCents ?? null },
    });
    return row;
  });
  return value;
}

/**
 * Marks a call STARTED before it runs; a call that already has its outcome means this writer is
 * stale. `attempt` (policy.ts) is the audit record of the try: the principal, the run, the policy's
 * decision and the sanitised parameters ("tool.attempted").
 */
export async function markCallStarted(rt: RuntimeDeps, claim: Claim, callId: string, name: string, attempt?: Attempt): Promise<void> {
  await transactWithEvents(rt, async (tx, emit) => {
    await fence(tx, claim);
    if ((await startCall(tx, callId, claim.generation)) === 0) throw new LeaseLost(claim.turnId, claim.generation);
    emit(claim.taskId, { type: 'TOOL_CALL_STARTED', actor: { kind: 'AGENT' }, payload: { callId, tool: name, ...(attempt ?? {}) } });
  });
}

/**
 * A call the policy refused: it ends FAILED with `error` (a sentence the model reads) and a
 * TOOL_CALL_DENIED event people see, in one transaction — nothing of the tool ran. `then` runs in
 * the same transaction with the number of times this tool was now refused in the task (an
 * escalation card); it returns whether the turn must wait for a person.
 */
export async function denyCall(
  rt: RuntimeDeps,
  claim: Claim,
  call: { id: string; name: string },
  attempt: Attempt,
  error: string,
  then?: (tx: Tx, emit: Emit, denials: number) => Promise<boolean>,
  /** The tool's settlement (ToolDef.settle): money a replayed call still holds is settled with the refusal, never left held. */
  settle?: (tx: Tx, outcome: CallOutcome) => Promise<CallOutcome>,
): Promise<boolean> {
  const { value } = await transactWithEvents(rt, async (tx, emit) => {
    await fence(tx, claim);
    const denials = (await countToolDenials(tx, claim.workspaceId, claim.taskId, call.name)) + 1;
    if ((await startCall(tx, call.id, claim.generation)) === 0) throw new LeaseLost(claim.turnId, claim.generation);
    const refused: CallOutcome = { status: 'FAILED', error };
    const outcome = settle ? await settle(tx, refused) : refused;
    if ((await recordCallOutcome(tx, call.id, claim.generation, outcome, claim.taskId)) === 0) throw new LeaseLost(claim.turnId, claim.generation);
    emit(claim.taskId, { type: 'TOOL_CALL_DENIED', actor: { kind: 'AGENT' }, payload: { callId: call.id, tool: call.name, ...attempt, reason: attempt.decision.allowed ? null : attempt.decision.reason, denials } });
    return then ? then(tx, emit, denials) : false;
  });
  return value;
}

/**
 * Records a call's outcome. When the tool ends the turn (complete_task) and succeeded, the turn
 * and the task complete in the same transaction.
 */
export async function finishCall(
  rt: RuntimeDeps,
  claim: Claim,
  call: { id: string; name: string },
  recorded: CallOutcome,
  endTurn?: { summary: string },
  /** The tool's settlement of money held for the call (ToolDef.settle): in this transaction, before the outcome is written. */
  settle?: (tx: Tx, outcome: CallOutcome) => Promise<CallOutcome>,
  /** More to write with the outcome, in its transaction (an escalation card). */
  also?: (tx: Tx, emit: Emit) => Promise<void>,
): Promise<void> {
  await transactWithEvents(rt, async (tx, emit) => {
    const status = await fence(tx, claim);
    const outcome = settle ? await settle(tx, recorded) : recorded;
    if ((await recordCallOutcome(tx, call.id, claim.generation, outcome, claim.taskId)) === 0) throw new LeaseLost(claim.turnId, claim.generation);
    emit(claim.taskId, {
      type: outcome.status === 'DONE' ? 'TOOL_CALL_DONE' : outcome.status === 'FAILED' ? 'TOOL_CALL_FAILED' : 'TOOL_CALL_OUTCOME_UNKNOWN',
      actor: { kind: 'AGENT' },
      payload: {
        callId: call.id,
        tool: call.name,
        ...('result' in outcome ? { result: outcome.result } : {}),
        ...('error' in outcome ? { error: outcome.error } : {}),
      },
    });
    if (also) await also(tx, emit);
    if (endTurn && outcome.status === 'DONE') await endTurnInTx(tx, emit, rt, claim, status, 'complete', endTurn.summary);
  });
}
