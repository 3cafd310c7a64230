// Steering a task from the thread: "stop the PPT", "hör auf mit dem Video", "pausiere die Plakate",
// "reprends l'affiche" reach the named task as a signal with signalTask's semantics — PAUSE, RESUME
// and CANCEL change the task's state now and its worker stops at its next boundary — applied once
// per message (the signal is filed under the message's key, unique per task). A cancel that would
// abandon paid work (a generation running, money held, an approved plan budget not yet spent) asks
// first with a card; answering "stop" on it applies the cancel, "keep going" leaves the task be.
// Jobs of a cancelled task are cancelled at the provider right after the commit (generation/
// cancel-on-commit.ts), settled by the provider's answer; reconciliation is the sweep behind it.
import type { Texts } from '../../../domain/replies/texts.ts';
import type { SteerSignal } from '../../../domain/replies/types.ts';
import { isTerminal, type TaskStatus } from '../../../domain/task-status.ts';
import { applyTransition, lockTask } from '../../../store/tasks/apply-transition.ts';
import { insertSignal } from '../../../store/tasks/inbox.ts';
import { ensureTurn } from '../../../store/turns.ts';
import { paidWorkOf } from './status.ts';
import { CARD_CONFIRM_CANCEL, CARD_WHICH_TASK, writeCard, writeReply, type ThreadCtx, type ThreadEffect, type ThreadInput } from './thread.ts';

const TRANSITION = { PAUSE: 'pause', RESUME: 'resume', CANCEL: 'cancel' } as const;

/**
 * Applies a PAUSE, RESUME or CANCEL to the task in the caller's transaction, once per `key`:
 * 'done', 'already' (the task is already there, or this key was applied before) or 'ended'.
 */
export async function applyStateSignal(
  ctx: ThreadCtx,
  s: { taskId: string; signal: SteerSignal; key: string; text: string },
): Promise<'done' | 'already' | 'ended'> {
  const { tx, emit, deps, viewer } = ctx;
  const current = await lockTask(tx, s.taskId);
  if (!current) return 'ended';
  if (isTerminal(current.status)) return s.signal === 'CANCEL' && current.status === 'CANCELLED' ? 'already' : 'ended';
  const filed = await insertSignal(tx, {
    taskId: s.taskId,
    workspaceId: current.workspaceId,
    signal: s.signal,
    text: s.text.slice(0, 2000),
    authorUserId: viewer.userId,
    idempotencyKey: s.key,
    consumedAt: new Date(),
  });
  if (!filed[0]) return 'already';
  const actor = { kind: 'USER' as const, id: viewer.userId };
  const d = await applyTransition(tx, emit, { taskId: s.taskId, from: current.status as TaskStatus, transition: TRANSITION[s.signal], actor, reason: null });
  if (d.kind === 'noop') return 'already';
  if (d.kind === 'reject') return 'ended';
  if (s.signal === 'RESUME') await ensureTurn(tx, deps.scheduler, { id: s.taskId, workspaceId: current.workspaceId });
  else {
    // A turn not yet claimed stops now; a running one stops at its next boundary (the fence).
    await tx.turn.updateMany({ where: { taskId: s.taskId, status: 'QUEUED' }, data: { status: 'STOPPED', outcome: `task ${d.to.toLowerCase()}`, endedAt: new Date() } });
  }
  return 'done';
}

/** A steering command for one task, from a message (or the answer to one of our cards about it). */
export async function steerTask(
  ctx: ThreadCtx,
  input: ThreadInput,
  t: Texts,
  s: { taskId: string; signal: SteerSignal; answering: { id: string; kind: string } | null },
): Promise<ThreadEffect> {
  const { tx } = ctx;
  const task = await tx.task.findFirst({ where: { id: s.taskId, workspaceId: input.workspaceId }, select: { id: true, title: true, status: true } });
  if (!task) {
    const reply = await writeReply(tx, input, { text: t.cannotAnswer(false), language: t.lang, card: s.answering });
    return { replyId: reply.id, cardId: null, taskId: null };
  }
  const confirmed = s.answering?.kind === CARD_CONFIRM_CANCEL;
  if (s.signal === 'CANCEL' && !confirmed && !isTerminal(task.status as TaskStatus)) {
    const paid = await paidWorkOf(tx, task.id);
    if (paid.runningJobs || paid.heldCents || paid.approvedCents) {
      const prompt = t.confirmCancel(task.title, paid);
      const card = await writeCard(tx, input, {
        kind: CARD_CONFIRM_CANCEL,
        prompt,
        options: [
          { id: 'stop', label: t.confirmYes('CANCEL'), action: 'continue', taskId: task.id, intent: 'CANCEL' },
          { id: 'keep', label: t.confirmNo, action: 'continue', taskId: task.id, intent: 'STATUS' },
        ],
      });
      const reply = await writeReply(tx, input, { text: prompt, language: t.lang, taskId: task.id, card: s.answering });
      return { replyId: reply.id, cardId: card.id, taskId: task.id };
    }
  }
  const result = await applyStateSignal(ctx, { taskId: task.id, signal: s.signal, key: `steer:${input.messageId}`, text: input.text });
  const reply = await writeReply(tx, input, { text: t.steered(s.signal, task.title, result), language: t.lang, taskId: task.id, card: s.answering });
  return { replyId: reply.id, cardId: null, taskId: task.id };
}

/** A command that names several tasks: ask which one, with a card whose options carry the signal. */
export async function askWhichTask(
  ctx: ThreadCtx,
  input: ThreadInput,
  t: Texts,
  s: { signal: SteerSignal; candidates: { taskId: string; title: string }[] },
): Promise<ThreadEffect> {
  const prompt = t.whichTask(s.signal);
  const card = await writeCard(ctx.tx, input, {
    kind: CARD_WHICH_TASK,
    prompt,
    options: s.candidates.slice(0, 4).map((c, i) => ({ id: `t${i}`, label: t.steerOption(s.signal, c.title), action: 'continue', taskId: c.taskId, intent: s.signal })),
  });
  const reply = await writeReply(ctx.tx, input, { text: prompt, language: t.lang });
  return { replyId: reply.id, cardId: card.id, taskId: null };
}

