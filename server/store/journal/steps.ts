// The steps and tool_calls tables: what the model decided and what became of each call it proposed.
// Writes run inside the runtime's fenced transaction (runtime/journal.ts). A step is written once per
// (turn, index); a call's id is `turn:step:call`, which is also its idempotency key everywhere it
// goes (jobs, approvals, objects), so a replayed call finds what its earlier attempt did.
import type { Db, Tx } from '../../db/client.ts';
import type { Prisma } from '../../db/generated/client.ts';
import type { Decision } from '../../domain/history.ts';
import { sealingKeyFor } from '../sealing/scope.ts';
import { sealValue, type DataKeyMaterial } from '../../domain/sealing.ts';
import { opened } from '../sealing/open.ts';

// What a step decided, was asked and what its calls were told and returned is content the task
// derived: sealed under the task's key when memory is in its context (store/sealing), opened here
// on every read — so the runtime, replay and the API never see ciphertext, only plaintext or the
// withheld marker.
const seal = <T>(key: DataKeyMaterial | null, v: T): T => (key && v != null ? sealValue(key, v) : v);

/** A call's id: stable across attempts and takeovers, and unique within the task's journal. */
export const toolCallId = (turnId: string, stepIndex: number, callIndex: number): string => `${turnId}:${stepIndex}:${callIndex}`;

export type CallOutcome =
  | { status: 'DONE'; result: unknown }
  | { status: 'FAILED'; error: string }
  | { status: 'OUTCOME_UNKNOWN'; result: unknown };

export type NewStep = {
  turnId: string;
  taskId: string;
  index: number;
  decision: Decision;
  requestDigest: string;
  request: unknown;
  model: string;
  usage: unknown;
  routing?: unknown;
  costCents?: number;
  generation: number;
};

/** Records a decision with the generation that made it; (turn, index) is unique, so a step is never written twice. */
export async function insertStep(tx: Tx, step: NewStep) {
  const key = await sealingKeyFor(tx, step.taskId);
  const row = await tx.step.create({
    data: {
      turnId: step.turnId,
      taskId: step.taskId,
      index: step.index,
      decision: seal(key, step.decision) as Prisma.InputJsonValue,
      requestDigest: step.requestDigest,
      request: seal(key, step.request) as Prisma.InputJsonValue,
      model: step.model,
      usage: (step.usage ?? undefined) as Prisma.InputJsonValue | undefined,
      routing: (step.routing ?? undefined) as Prisma.InputJsonValue | undefined,
      costCents: step.costCents ?? null,
      generation: step.generation,
    },
  });
  return { ...row, decision: step.decision as unknown as Prisma.JsonValue, request: step.request as Prisma.JsonValue };
}

/**
 * Records the step's proposed calls as PENDING, in the model's order, in the transaction of the
 * step itself: a decision never exists without its calls, nor a call without its decision.
 */
export async function insertToolCalls(
  tx: Tx,
  step: { id: string; turnId: string; taskId: string; workspaceId: string; index: number; generation: number },
  calls: Decision['toolCalls'],
  safetyOf: (tool: string) => string,
): Promise<void> {
  const key = await sealingKeyFor(tx, step.taskId);
  await tx.toolCall.createMany({
    data: calls.map((c, i) => ({
      id: toolCallId(step.turnId, step.index, i),
      turnId: step.turnId,
      stepId: step.id,
      taskId: step.taskId,
      workspaceId: step.workspaceId,
      stepIndex: step.index,
      callIndex: i,
      modelCallId: c.id,
      name: c.name,
      input: seal(key, c.args ?? {}) as Prisma.InputJsonValue,
      safety: safetyOf(c.name),
      generation: step.generation,
    })),
  });
}

/**
 * Marks a call STARTED (again, on a replay) and counts the attempt. Only a PENDING or STARTED call
 * moves: a call that already has its outcome is never started again. Returns the rows changed.
 */
export async function startCall(tx: Tx, callId: string, generation: number): Promise<number> {
  const n = await tx.toolCall.updateMany({
    where: { id: callId, status: { in: ['PENDING', 'STARTED'] } },
    data: { status: 'STARTED', attempts: { increment: 1 }, startedAt: new Date(), generation },
  });
  return n.count;
}

/**
 * Records a STARTED call's outcome. Only a STARTED call moves, so an outcome is recorded at most
 * once. Returns the rows changed.
 */
export async function recordCallOutcome(tx: Tx, callId: string, generation: number, outcome: CallOutcome, taskId?: string): Promise<number> {
  const key = taskId ? await sealingKeyFor(tx, taskId) : null;
  const n = await tx.toolCall.updateMany({
    where: { id: callId, status: 'STARTED' },
    data: {
      status: outcome.status,
      result: 'result' in outcome ? (seal(key, outcome.result) as Prisma.InputJsonValue) : undefined,
      error: 'error' in outcome ? seal(key, outcome.error) : null,
      finishedAt: new Date(),
      generation,
    },
  });
  return n.count;
}

/**
 * Marks calls that never started as SKIPPED (a message with the INTERRUPT or ROLLBACK policy
 * arrived first). Invariant: only PENDING calls change — a call that started keeps its resume rules
 * (a safe boundary is between calls, never inside one). Returns how many were skipped.
 */
export async function skipPendingCalls(tx: Tx, callIds: string[], generation: number, result: { reason: string; policy: string; inboxItemId: string; rolledBack: boolean }): Promise<number> {
  if (!callIds.length) return 0;
  const n = await tx.toolCall.updateMany({
    where: { id: { in: callIds }, status: 'PENDING' },
    data: { status: 'SKIPPED', result: result as unknown as Prisma.InputJsonValue, finishedAt: new Date(), generation },
  });
  return n.count;
}

/** A step's finished calls (the engine asks their tools whether they left external work running). */
export async function doneCallsOfStep(db: Db, stepId: string) {
  return opened(db, await db.toolCall.findMany({ where: { stepId, status: 'DONE' } }));
}

/**
 * A call of this task, by its journal id or else by the id the model gave it (the newest finished one
 * of that id). Scoped to the task: a call id of another task finds nothing.
 */
export async function findCallOfTask(db: Db, taskId: string, callId: string) {
  const call =
    (await db.toolCall.findFirst({ where: { id: callId, taskId } })) ??
    (await db.toolCall.findFirst({ where: { modelCallId: callId, taskId }, orderBy: { finishedAt: 'desc' } }));
  return call ? (await opened(db, [call]))[0]! : null;
}

/** Every call of the task with its status, for checking the journal against the event fold. */
export async function callStatusesOfTask(db: Db, taskId: string): Promise<{ id: string; status: string }[]> {
  return db.toolCall.findMany({ where: { taskId }, select: { id: true, status: true } });
}

/**
 * All steps of a task with their calls, in execution order (turn number, then step index; calls by
 * their index). The step order is the journal's order: context, resume and replay all read it.
 */
export async function loadTaskSteps(db: Db, taskId: string) {
  const steps = await db.step.findMany({
    where: { taskId },
    include: { toolCalls: { orderBy: { callIndex: 'asc' } }, turn: { select: { number: true } } },
  });
  return (await opened(db, steps))
    .map((s) => ({ ...s, turnNumber: s.turn.number }))
    .sort((a, b) => a.turnNumber - b.turnNumber || a.index - b.index);
}
