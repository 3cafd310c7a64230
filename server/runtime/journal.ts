// The execution journal: every runtime write, fenced. A write locks the task row, then the turn
// row, and is rejected with LeaseLost when the turn's generation is not the writer's (a newer
// worker took over) or the turn is no longer running, and with TaskStopped when the task was
// paused, cancelled or ended. Lock order everywhere: task row → turn row → (events: workspace row).
import { transactWithEvents, type Emit } from '../channel/unit-of-work.ts';
import type { Tx } from '../db/client.ts';
import type { Prisma } from '../db/generated/client.ts';
import type { TaskStatus, TaskTransition } from '../domain/task-status.ts';
import { applyTransition, lockTask } from '../store/tasks/apply-transition.ts';
import type { Decision } from '../domain/history.ts';
import type { RuntimeDeps } from './deps.ts';
import { InboxChanged, LeaseLost, TaskStopped } from './errors.ts';
import { ensureTurn } from '../store/turns.ts';
import { readChecklist } from '../store/checklist/write-checklist.ts';
import { requestApproval } from '../store/approvals/request-approval.ts';
import { progressOf } from '../domain/checklist.ts';
import { decideContinuation, deliverySummary } from '../domain/continuation.ts';

export type { Decision };

export type Claim = { turnId: string; taskId: string; workspaceId: string; number: number; generation: number; /** The process holding the lease. */ workerId?: string };

const RUNNABLE: TaskStatus[] = ['QUEUED', 'RUNNING', 'WAITING'];

/** Moves the task if the state machine allows it (runtime transitions are never errors). */
async function moveTask(tx: Tx, emit: Emit, taskId: string, from: TaskStatus, t: TaskTransition, reason: string | null): Promise<TaskStatus> {
  const d = await applyTransition(tx, emit, { taskId, from, transition: t, actor: { kind: 'SYSTEM' }, reason });
  return d.kind === 'move' ? d.to : from;
}

/**
 * The fence: inside a transaction, lock task then turn and check this writer may still write.
 * Returns the task status.
 */
async function fence(tx: Tx, claim: Claim): Promise<TaskStatus> {
  const task = await lockTask(tx, claim.taskId);
  const turn = await tx.$queryRawUnsafe<{ generation: number; status: string }[]>(
    'SELECT generation, status FROM turns WHERE id = $1::uuid FOR UPDATE',
    claim.turnId,
  );
  const t = turn[0];
  if (!t || t.generation !== claim.generation || t.status !== 'RUNNING') throw new LeaseLost(claim.turnId, claim.generation);
  if (!task || !RUNNABLE.includes(task.status)) throw new TaskStopped(claim.taskId, task?.status ?? 'DELETED');
  return task.status;
}

/**
 * Claims a turn: succeeds when it is QUEUED, or RUNNING with an expired lease (a takeover). Every
 * claim increments the generation. A turn of a task that can no longer run is stopped instead.
 */
export async function claimTurn(rt: RuntimeDeps, turnId: string, workerId: string): Promise<Claim | null> {
  const head = await rt.prisma.turn.findUnique({ where: { id: turnId }, select: { taskId: true } });
  if (!head) return null;
  const { value } = await transactWithEvents(rt, async (tx, emit) => {
    const task = await lockTask(tx, head.taskId);
    const rows = await tx.$queryRawUnsafe<
      { id: string; task_id: string; workspace_id: string; number: number; status: string; generation: number; lease_live: boolean }[]
    >(
      `SELECT id, task_id, workspace_id, number, status, generation,
              (lease_expires_at IS NOT NULL AND lease_expires_at > now()) AS lease_live
         FROM turns WHERE id = $1::uuid FOR UPDATE`,
      turnId,
    );
    const turn = rows[0];
    if (!turn || !task) return null;
    if (turn.status !== 'QUEUED' && !(turn.status === 'RUNNING' && !turn.lease_live)) return null;
    if (!RUNNABLE.includes(task.status)) {
      await tx.turn.update({ where: { id: turnId }, data: { status: 'STOPPED', outcome: `task ${task.status}`, endedAt: new Date() } });
      return null;
    }
    const generation = turn.generation + 1;
    await tx.$executeRawUnsafe(
      `UPDATE turns SET generation = $2, status = 'RUNNING', lease_owner = $3,
              lease_expires_at = now() + ($4::int * interval '1 millisecond'), started_at = COALESCE(started_at, now())
        WHERE id = $1::uuid`,
      turnId,
      generation,
      workerId,
      rt.options.leaseMs,
    );
    await moveTask(tx, emit, turn.task_id, task.status, 'start', null);
    emit(turn.task_id, {
      type: 'TURN_STARTED',
      actor: { kind: 'SYSTEM' },
      payload: { turn: turn.number, generation, takeover: generation > 1, workerId },
    });
    return { turnId, taskId: turn.task_id, workspaceId: turn.workspace_id, number: turn.number, generation, workerId };
  });
  return value;
}

/**
 * Extends the lease. Throws LeaseLost when the turn was taken over, and TaskStopped when the task
 * was paused or cancelled meanwhile — so a long tool call is interrupted promptly (through its
 * abort signal) instead of at its end.
 */
export async function renewLease(rt: RuntimeDeps, claim: Claim): Promise<void> {
  const rows = await rt.prisma.$queryRawUnsafe<{ task_status: TaskStatus }[]>(
    `UPDATE turns SET lease_expires_at = now() + ($3::int * interval '1 millisecond')
      WHERE id = $1::uuid AND generation = $2 AND status = 'RUNNING'
      RETURNING (SELECT status FROM tasks WHERE id = turns.task_id) AS task_status`,
    claim.turnId,
    claim.generation,
    rt.options.leaseMs,
  );
  const row = rows[0];
  if (!row) throw new LeaseLost(claim.turnId, claim.generation);
  if (!RUNNABLE.includes(row.task_status)) throw new TaskStopped(claim.taskId, row.task_status);
}

/**
 * The cheap check at a safe boundary (before a model call or a tool call): one read, no locks, no
 * transaction. It keeps a paused, cancelled or superseded turn from starting new work; the
 * authoritative check is the fence inside the write that follows.
 */
export async function checkBoundary(rt: RuntimeDeps, claim: Claim): Promise<void> {
  const rows = await rt.prisma.$queryRawUnsafe<{ generation: number; status: string; task_status: TaskStatus }[]>(
    `SELECT t.generation, t.status, k.status AS task_status FROM turns t JOIN tasks k ON k.id = t.task_id WHERE t.id = $1::uuid`,
    claim.turnId,
  );
  const r = rows[0];
  if (!r || r.generation !== claim.generation || r.status !== 'RUNNING') throw new LeaseLost(claim.turnId, claim.generation);
  if (!RUNNABLE.includes(r.task_status)) throw new TaskStopped(claim.taskId, r.task_status);
}


/**
 * Commits a model decision, its pending tool calls and the inbox items it consumed, in ONE
 * transaction, before any tool runs.
 */
export async function commitStep(
  rt: RuntimeDeps,
  claim: Claim,
  step: {
    index: number;
    decision: Decision;
    requestDigest: string;
    request: unknown;
    model: string;
    usage: unknown;
    /** Which model role answered and why, the tool-set decision and the context size. */
    routing?: unknown;
    costCents?: number;
    consumedInboxIds: string[];
    /** Change notices this step's model input carried (shared workspace): consumed with the step. */
    consumedNoticeIds?: string[];
    safetyOf: (tool: string) => string;
  },
) {
  const { value } = await transactWithEvents(rt, async (tx, emit) => {
    await fence(tx, claim);
    const row = await tx.step.create({
      data: {
        turnId: claim.turnId,
        taskId: claim.taskId,
        index: step.index,
        decision: step.decision as Prisma.InputJsonValue,
        requestDigest: step.requestDigest,
        request: step.request as Prisma.InputJsonValue,
        model: step.model,
        usage: (step.usage ?? undefined) as Prisma.InputJsonValue | undefined,
        routing: (step.routing ?? undefined) as Prisma.InputJsonValue | undefined,
        costCents: step.costCents ?? null,
        generation: claim.generation,
      },
    });
    if (step.decision.toolCalls.length) {
      await tx.toolCall.createMany({
        data: step.decision.toolCalls.map((c, i) => ({
          id: `${claim.turnId}:${step.index}:${i}`,
          turnId: claim.turnId,
          stepId: row.id,
          taskId: claim.taskId,
          workspaceId: claim.workspaceId,
          stepIndex: step.index,
          callIndex: i,
          modelCallId: c.id,
          name: c.name,
          input: (c.args ?? {}) as Prisma.InputJsonValue,
          safety: step.safetyOf(c.name),
          generation: claim.generation,
        })),
      });
    }
    let consumed = 0;
    if (step.consumedInboxIds.length) {
      consumed = (
        await tx.inboxItem.updateMany({
          where: { id: { in: step.consumedInboxIds }, consumedAt: null, withdrawnAt: null },
          data: { consumedTurnId: claim.turnId, consumedStep: step.index, consumedAt: new Date() },
        })
      ).count;
      if (consumed !== step.consumedInboxIds.length) {
        // An item was withdrawn while the model ran: this decision rests on a message the user took
        // back. Nothing is committed; the step is asked again.
        throw new InboxChanged(claim.taskId);
      }
    }
    if (step.consumedNoticeIds?.length) {
      // Notices are never withdrawn, and the fence (task row lock) keeps any other step of this task
      // from consuming them meanwhile: exactly the notices the model read are marked, exactly once.
      await tx.changeNotice.updateMany({
        where: { id: { in: step.consumedNoticeIds }, consumedAt: null },
        data: { consumedTurnId: claim.turnId, consumedStep: step.index, consumedAt: new Date() },
      });
    }
    emit(claim.taskId, {
      type: 'STEP_DECIDED',
      actor: { kind: 'AGENT' },
      payload: {
        turn: claim.number,
        step: step.index,
        message: step.decision.content.slice(0, 2000),
        toolCalls: step.decision.toolCalls.map((c, i) => ({ id: `${claim.turnId}:${step.index}:${i}`, name: c.name })),
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

export async function markCallStarted(rt: RuntimeDeps, claim: Claim, callId: string, name: string): Promise<void> {
  await transactWithEvents(rt, async (tx, emit) => {
    await fence(tx, claim);
    const n = await tx.toolCall.updateMany({
      where: { id: callId, status: { in: ['PENDING', 'STARTED'] } },
      data: { status: 'STARTED', attempts: { increment: 1 }, startedAt: new Date(), generation: claim.generation },
    });
    if (n.count === 0) throw new LeaseLost(claim.turnId, claim.generation);
    emit(claim.taskId, { type: 'TOOL_CALL_STARTED', actor: { kind: 'AGENT' }, payload: { callId, tool: name } });
  });
}

export type CallOutcome =
  | { status: 'DONE'; result: unknown }
  | { status: 'FAILED'; error: string }
  | { status: 'OUTCOME_UNKNOWN'; result: unknown };

/**
 * Records a call's outcome. When the tool ends the turn (complete_task) and succeeded, the turn
 * and the task complete in the same transaction.
 */
export async function finishCall(
  rt: RuntimeDeps,
  claim: Claim,
  call: { id: string; name: string },
  outcome: CallOutcome,
  endTurn?: { summary: string },
): Promise<void> {
  await transactWithEvents(rt, async (tx, emit) => {
    const status = await fence(tx, claim);
    const n = await tx.toolCall.updateMany({
      where: { id: call.id, status: 'STARTED' },
      data: {
        status: outcome.status,
        result: 'result' in outcome ? (outcome.result as Prisma.InputJsonValue) : undefined,
        error: 'error' in outcome ? outcome.error : null,
        finishedAt: new Date(),
        generation: claim.generation,
      },
    });
    if (n.count === 0) throw new LeaseLost(claim.turnId, claim.generation);
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
    if (endTurn && outcome.status === 'DONE') await endTurnInTx(tx, emit, rt, claim, status, 'complete', endTurn.summary);
  });
}

export type TurnEnd = 'complete' | 'requeue' | 'fail' | 'suspend' | 'budget' | 'pause' | 'decide';

/**
 * Applies the continuation decision (continuation.ts) to a turn that ended because the model
 * stopped calling tools or the step limit was hit: gathers the persisted state, decides, records the
 * decision (and the idle-turn count) and returns what to do with the turn.
 */
async function decideInTx(
  tx: Tx,
  emit: Emit,
  rt: RuntimeDeps,
  claim: Claim,
  text: string,
  stepLimitHit: boolean,
): Promise<{ how: Exclude<TurnEnd, 'decide'>; text: string }> {
  const task = await tx.task.findUniqueOrThrow({ where: { id: claim.taskId }, select: { idleTurns: true, progressMark: true } });
  const checklist = await readChecklist(tx, claim.taskId);
  const [pendingJobs, pendingApprovals, turns, jobs] = await Promise.all([
    tx.generationJob.count({ where: { taskId: claim.taskId, status: { in: ['SUBMITTING', 'QUEUED', 'RUNNING', 'UNKNOWN'] } } }),
    tx.approval.count({ where: { taskId: claim.taskId, status: 'PENDING' } }),
    tx.turn.count({ where: { taskId: claim.taskId } }),
    tx.generationJob.count({ where: { taskId: claim.taskId } }),
  ]);
  const p = progressOf(checklist?.items ?? []);
  const mark = `${p.done}/${p.artifacts}/${jobs}`;
  const progressed = mark !== task.progressMark;
  const d = decideContinuation({
    modelText: text,
    checklist: checklist?.items ?? null,
    pendingJobs,
    pendingApprovals,
    turns,
    maxTurns: rt.options.maxTurnsPerTask,
    progressed,
    idleTurns: task.idleTurns,
    maxIdleTurns: rt.options.maxIdleTurns ?? 2,
    stepLimitHit,
  });
  const idleTurns = progressed ? 0 : task.idleTurns + 1;
  await tx.task.update({ where: { id: claim.taskId }, data: { idleTurns, progressMark: mark } });
  emit(claim.taskId, {
    type: 'CONTINUATION_DECIDED',
    actor: { kind: 'SYSTEM' },
    payload: { turn: claim.number, decision: d.kind, reason: d.reason, progressed, idleTurns, ...(d.kind === 'stop' ? { how: d.how } : {}) },
  });
  switch (d.kind) {
    case 'complete':
      return { how: 'complete', text: d.summary };
    case 'next':
      return { how: 'requeue', text: d.reason };
    case 'suspend':
      return { how: 'suspend', text: d.reason };
    case 'stop':
      return { how: d.how, text: d.reason };
    case 'card':
      // The model asked in prose: the runtime makes it a card the user can answer with one click.
      await requestApproval(tx, emit, {
        workspaceId: claim.workspaceId,
        taskId: claim.taskId,
        kind: 'CHECKPOINT',
        requestKey: `auto-checkpoint:${claim.turnId}`,
        title: d.prompt.slice(0, 1000),
        reasons: [{ code: 'CHECKPOINT', message: 'The agent needs your decision to go on.' }],
        quoteCents: null,
        action: { type: 'CHECKPOINT', kind: 'CONFIRM', source: 'runtime' },
        requestedBy: { kind: 'SYSTEM' },
      });
      return { how: 'suspend', text: 'waiting for your confirmation' };
  }
}

async function endTurnInTx(
  tx: Tx,
  emit: Emit,
  rt: RuntimeDeps,
  claim: Claim,
  taskStatus: TaskStatus,
  requested: TurnEnd,
  requestedText: string,
  opts: { stepLimitHit?: boolean } = {},
): Promise<Exclude<TurnEnd, 'decide'>> {
  const { how, text } =
    requested === 'decide' ? await decideInTx(tx, emit, rt, claim, requestedText, opts.stepLimitHit ?? false) : { how: requested, text: requestedText };
  await tx.turn.update({
    where: { id: claim.turnId },
    data: {
      status: how === 'fail' ? 'FAILED' : how === 'budget' ? 'STOPPED' : 'COMPLETED',
      outcome: how,
      endedAt: new Date(),
      leaseExpiresAt: null,
    },
  });
  emit(claim.taskId, {
    type: 'TURN_ENDED',
    actor: { kind: 'SYSTEM' },
    payload: { turn: claim.number, outcome: how, ...(how === 'complete' ? { summary: text.slice(0, 10_000) } : {}) },
  });
  if (how === 'complete') {
    // With a checklist, the delivery cites every finished step's results.
    const checklist = requested === 'decide' ? null : await readChecklist(tx, claim.taskId);
    const summary = checklist?.items.length ? deliverySummary(checklist.items, text) : text;
    await tx.task.update({ where: { id: claim.taskId }, data: { summary: summary.slice(0, 10_000) } });
    await moveTask(tx, emit, claim.taskId, taskStatus, 'complete', null);
  } else if (how === 'pause') {
    // Stopped by the runtime (no progress, blocked): the reason is on the task; RESUME goes on.
    await moveTask(tx, emit, claim.taskId, taskStatus, 'pause', text);
  } else if (how === 'fail') {
    await moveTask(tx, emit, claim.taskId, taskStatus, 'fail', text);
  } else if (how === 'budget') {
    // Ends the task; everything it did (journal, jobs, ledger, assets) stays as it is, visible.
    await moveTask(tx, emit, claim.taskId, taskStatus, 'exceedBudget', text);
  } else if (how === 'suspend') {
    // Waiting on external work: no turn is scheduled; the work's completion wakes the task. If a
    // result (or a message) already arrived while this turn ran, go on at once instead.
    const after = await moveTask(tx, emit, claim.taskId, taskStatus, 'wait', text);
    const unread = await tx.inboxItem.count({ where: { taskId: claim.taskId, consumedAt: null, withdrawnAt: null } });
    const pending = await tx.generationJob.count({ where: { taskId: claim.taskId, status: { in: ['SUBMITTING', 'QUEUED', 'RUNNING', 'UNKNOWN'] } } });
    // A pending approval is resolved by a person, whose decision requeues the task; going on now
    // would only replay the waiting call and suspend again.
    const asking = await tx.approval.count({ where: { taskId: claim.taskId, status: 'PENDING' } });
    if (unread > 0 && pending === 0 && asking === 0) {
      await moveTask(tx, emit, claim.taskId, after, 'requeue', null);
      await ensureTurn(tx, rt.scheduler, { id: claim.taskId, workspaceId: claim.workspaceId });
    }
  } else {
    const turns = await tx.turn.count({ where: { taskId: claim.taskId } });
    if (turns >= rt.options.maxTurnsPerTask) {
      await moveTask(tx, emit, claim.taskId, taskStatus, 'fail', `Stopped after ${turns} turns without finishing`);
      return 'fail';
    }
    await moveTask(tx, emit, claim.taskId, taskStatus, 'requeue', null);
    await ensureTurn(tx, rt.scheduler, { id: claim.taskId, workspaceId: claim.workspaceId });
  }
  return how;
}

/**
 * Ends the turn: complete the task, schedule the next turn, suspend, stop, or fail the task.
 * `decide` lets the continuation decision choose from persisted state.
 */
export async function endTurn(rt: RuntimeDeps, claim: Claim, how: TurnEnd, text: string, opts: { stepLimitHit?: boolean } = {}): Promise<Exclude<TurnEnd, 'decide'>> {
  const { value } = await transactWithEvents(rt, async (tx, emit) => {
    const status = await fence(tx, claim);
    return endTurnInTx(tx, emit, rt, claim, status, how, text, opts);
  });
  return value;
}

/** Marks the turn stopped because its task stopped (pause, cancel): best effort, never throws. */
export async function stopTurn(rt: RuntimeDeps, claim: Claim, why: string): Promise<void> {
  await rt.prisma.turn
    .updateMany({
      where: { id: claim.turnId, generation: claim.generation, status: 'RUNNING' },
      data: { status: 'STOPPED', outcome: why, endedAt: new Date(), leaseExpiresAt: null },
    })
    .catch((e) => rt.log.warn('stopping turn failed', { turnId: claim.turnId, error: (e as Error).message }));
}
