// Closing a turn: what the task does next (complete, schedule the next turn, suspend, stop, fail),
// written under the fence in the same transaction as the turn's end. When the model simply stopped
// calling tools, the continuation decision (domain/continuation.ts) chooses from persisted state and
// is recorded with its reason; a question the model asked in prose becomes a checkpoint card.
import { transactWithEvents, type Emit } from '../channel/unit-of-work.ts';
import type { Tx } from '../db/client.ts';
import type { TaskStatus } from '../domain/task-status.ts';
import { progressOf } from '../domain/checklist.ts';
import { decideContinuation, deliverySummary } from '../domain/continuation.ts';
import { requestApproval } from '../store/approvals/request-approval.ts';
import { readChecklist } from '../store/checklist/write-checklist.ts';
import { supersedeWaitingCards } from '../store/approvals/supersede.ts';
import { countUnreadInbox, latestUnreadFromUser } from '../store/journal/inbox.ts';
import { closeTurn, countTurns, stopRunningTurn } from '../store/journal/leases.ts';
import { readProgressMark, readTaskBrief, recordProgressMark, writeTaskSummary } from '../store/journal/tasks.ts';
import { textsFor, type Texts } from '../domain/replies/texts.ts';
import { countJobs, countOutstanding, countPendingApprovals } from '../store/journal/waits.ts';
import { countPendingFollowUps } from '../store/follow-ups.ts';
import { ensureTurn } from '../store/turns.ts';
import type { RuntimeDeps } from './deps.ts';
import { fence, moveTask, type Claim } from './lease.ts';

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
  const task = await readProgressMark(tx, claim.taskId);
  const checklist = await readChecklist(tx, claim.taskId);
  const [pendingJobs, pendingApprovals, pendingFollowUps, turns, jobs] = await Promise.all([
    countOutstanding(tx, claim.taskId),
    countPendingApprovals(tx, claim.taskId),
    countPendingFollowUps(tx, claim.taskId),
    countTurns(tx, claim.taskId),
    countJobs(tx, claim.taskId),
  ]);
  const p = progressOf(checklist?.items ?? []);
  const mark = `${p.done}/${p.artifacts}/${jobs}`;
  const progressed = mark !== task.progressMark;
  const d = decideContinuation({
    modelText: text,
    checklist: checklist?.items ?? null,
    pendingJobs,
    pendingApprovals,
    pendingFollowUps,
    turns,
    maxTurns: rt.options.maxTurnsPerTask,
    progressed,
    idleTurns: task.idleTurns,
    maxIdleTurns: rt.options.maxIdleTurns ?? 2,
    stepLimitHit,
    language: (await readTaskBrief(tx, claim.taskId)).language,
  });
  const idleTurns = progressed ? 0 : task.idleTurns + 1;
  await recordProgressMark(tx, claim.taskId, { idleTurns, progressMark: mark });
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
      await requestCheckpoint(tx, emit, claim, d.prompt, textsFor((await readTaskBrief(tx, claim.taskId)).language));
      return { how: 'suspend', text: 'waiting for your confirmation' };
  }
}

/**
 * The model asked in prose: the runtime makes it a card the user can answer with one click. Keyed by
 * the turn, so a retried turn end files the same card, never a second one.
 */
async function requestCheckpoint(tx: Tx, emit: Emit, claim: Claim, prompt: string, t: Texts): Promise<void> {
  await requestApproval(tx, emit, {
    workspaceId: claim.workspaceId,
    taskId: claim.taskId,
    kind: 'CHECKPOINT',
    requestKey: `auto-checkpoint:${claim.turnId}`,
    title: prompt.slice(0, 1000),
    reasons: [{ code: 'CHECKPOINT', message: t.checkpointReason }],
    quoteCents: null,
    action: { type: 'CHECKPOINT', kind: 'CONFIRM', source: 'runtime' },
    requestedBy: { kind: 'SYSTEM' },
  });
}

/** Ends the turn inside a fenced transaction (the caller passed the fence and holds both rows). */
export async function endTurnInTx(
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
  await closeTurn(tx, claim.turnId, how);
  emit(claim.taskId, {
    type: 'TURN_ENDED',
    actor: { kind: 'SYSTEM' },
    payload: { turn: claim.number, outcome: how, ...(how === 'complete' ? { summary: text.slice(0, 10_000) } : {}) },
  });
  if (how === 'complete') {
    // With a checklist, the delivery cites every finished step's results.
    const checklist = requested === 'decide' ? null : await readChecklist(tx, claim.taskId);
    // In the task's language, like every text a person reads from it.
    const summary = checklist?.items.length ? deliverySummary(checklist.items, text, (await readTaskBrief(tx, claim.taskId)).language) : text;
    await writeTaskSummary(tx, claim.taskId, summary.slice(0, 10_000));
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
    // An instruction from the user that came while this turn ran (after its step had read the
    // inbox) answers the card the turn has just filed: the card is set aside and the task goes on
    // at once to read the instruction (supersede.ts requeues it).
    const instruction = await latestUnreadFromUser(tx, claim.taskId);
    if (instruction) {
      const kind = instruction.kind === 'MESSAGE' ? 'MESSAGE' : (instruction.signal as 'REVISE' | 'ADD_CONTEXT');
      const actor = { kind: 'USER' as const, id: instruction.authorUserId };
      const set = await supersedeWaitingCards(tx, emit, rt.scheduler, { taskId: claim.taskId, actor, instruction: { kind, text: instruction.text ?? '', inboxItemId: instruction.id } });
      if (set.length) return how;
    }
    const unread = await countUnreadInbox(tx, claim.taskId);
    const pending = await countOutstanding(tx, claim.taskId);
    // A pending approval is resolved by a person, whose decision requeues the task; going on now
    // would only replay the waiting call and suspend again.
    const asking = await countPendingApprovals(tx, claim.taskId);
    if (unread > 0 && pending === 0 && asking === 0) {
      await moveTask(tx, emit, claim.taskId, after, 'requeue', null);
      await ensureTurn(tx, rt.scheduler, { id: claim.taskId, workspaceId: claim.workspaceId });
    }
  } else {
    const turns = await countTurns(tx, claim.taskId);
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
  await stopRunningTurn(rt.prisma, claim.turnId, claim.generation, why).catch((e) =>
    rt.log.warn('stopping turn failed', { turnId: claim.turnId, error: (e as Error).message }),
  );
}
