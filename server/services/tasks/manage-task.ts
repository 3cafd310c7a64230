// Task housekeeping from the main thread: archive, promote a lightweight task, merge two tasks,
// and re-route a misrouted message. Every change is journaled as an event.
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import type { Deps } from '../deps.ts';
import { isTerminal } from '../../domain/task-status.ts';
import { badInput, conflict, notFound } from '../../errors.ts';
import { ensureTurn } from '../../store/turns.ts';
import { applyTransition, lockTask } from '../../store/tasks/apply-transition.ts';
import { supersedeWaitingCards } from '../../store/approvals/supersede.ts';
import { loadTaskFor } from './load-task.ts';
import { continueLine } from './next-round.ts';

export async function archiveTask(deps: Deps, viewer: Viewer, taskId: string, archived: boolean) {
  await loadTaskFor(deps.prisma, viewer, taskId, 'write');
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    await lockTask(tx, taskId);
    const task = await tx.task.update({ where: { id: taskId }, data: { archivedAt: archived ? new Date() : null } });
    emit(taskId, { type: archived ? 'TASK_ARCHIVED' : 'TASK_UNARCHIVED', actor: { kind: 'USER', id: viewer.userId }, payload: {} });
    return task;
  });
  return value;
}

export async function promoteTask(deps: Deps, viewer: Viewer, taskId: string, reason = 'on request') {
  await loadTaskFor(deps.prisma, viewer, taskId, 'write');
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    await lockTask(tx, taskId);
    const task = await tx.task.findUniqueOrThrow({ where: { id: taskId } });
    if (task.kind === 'PERSISTENT') return task;
    emit(taskId, { type: 'TASK_PROMOTED', actor: { kind: 'USER', id: viewer.userId }, payload: { reason } });
    return tx.task.update({ where: { id: taskId }, data: { kind: 'PERSISTENT' } });
  });
  return value;
}

/**
 * Merges `sourceId` into `targetId`: the source's unread messages move to the target, the source
 * ends (CANCELLED, "merged into …") and points at the target. Both journals record it.
 */
export async function mergeTasks(deps: Deps, viewer: Viewer, sourceId: string, targetId: string) {
  if (sourceId === targetId) throw badInput('A task cannot be merged into itself');
  const source = await loadTaskFor(deps.prisma, viewer, sourceId, 'write');
  const target = await loadTaskFor(deps.prisma, viewer, targetId, 'write');
  if (source.workspaceId !== target.workspaceId) throw notFound('Task');
  if (isTerminal(target.status) || target.mergedIntoId) throw conflict('The target task has ended');
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    // Lock both in id order (the lock-order rule of the event log).
    const [first, second] = [sourceId, targetId].sort();
    await lockTask(tx, first!);
    await lockTask(tx, second!);
    const s = await tx.task.findUniqueOrThrow({ where: { id: sourceId } });
    if (s.mergedIntoId) throw conflict('This task was already merged');
    const moved = await tx.inboxItem.findMany({ where: { taskId: sourceId, consumedAt: null, withdrawnAt: null }, orderBy: { createdAt: 'asc' } });
    const created = [];
    for (const item of moved) {
      await tx.inboxItem.update({ where: { id: item.id }, data: { withdrawnAt: new Date() } });
      created.push(
        await tx.inboxItem.create({
          data: { taskId: targetId, workspaceId: item.workspaceId, kind: item.kind, signal: item.signal, text: item.text, authorUserId: item.authorUserId, idempotencyKey: `merged:${item.id}` },
        }),
      );
    }
    const actor = { kind: 'USER' as const, id: viewer.userId };
    // The moved words reach the target like any message: a plan, pick or price card it waits on
    // is set aside for them (the task wakes, reads them, and asks again if it still must).
    const words = created.filter((i) => i.text && (i.kind === 'MESSAGE' || i.signal === 'REVISE' || i.signal === 'ADD_CONTEXT')).map((i) => i.text!.trim());
    if (words.length) {
      await supersedeWaitingCards(tx, emit, deps.scheduler, { taskId: targetId, actor, instruction: { kind: 'MESSAGE', text: words.join('\n'), inboxItemId: created.at(-1)!.id } });
    }
    await applyTransition(tx, emit, { taskId: sourceId, from: s.status, transition: 'cancel', actor, reason: `merged into "${target.title}"` });
    await tx.task.update({ where: { id: sourceId }, data: { mergedIntoId: targetId } });
    await tx.turn.updateMany({ where: { taskId: sourceId, status: 'QUEUED' }, data: { status: 'STOPPED', outcome: 'task merged', endedAt: new Date() } });
    emit(sourceId, { type: 'TASK_MERGED', actor, payload: { into: targetId, movedMessages: moved.length } });
    emit(targetId, { type: 'TASK_MERGED_IN', actor, payload: { from: sourceId, title: s.title, summary: s.summary, movedMessages: moved.length } });
    if (moved.length && ['QUEUED', 'RUNNING', 'WAITING'].includes(target.status)) await ensureTurn(tx, deps.scheduler, target);
    return tx.task.findUniqueOrThrow({ where: { id: targetId } });
  });
  return value;
}

/**
 * Corrects a routing decision: the message is delivered to `taskId` instead — to its line's next
 * round when that task has ended (next-round.ts). The old decision is kept (superseded) and the new
 * one records who corrected it. An unread copy in the wrong task is withdrawn; if the wrong task
 * already read it, its journal says the message was re-routed.
 */
export async function rerouteMessage(deps: Deps, viewer: Viewer, messageId: string, taskId: string) {
  const message = await deps.prisma.message.findFirst({ where: { id: messageId, role: 'USER', thread: { userId: viewer.userId } } });
  if (!message || !viewer.memberships.has(message.workspaceId)) throw notFound('Message');
  const chosen = await loadTaskFor(deps.prisma, viewer, taskId, 'write');
  if (chosen.workspaceId !== message.workspaceId) throw notFound('Task');
  if (message.taskId === taskId) throw conflict('The message is already with this task');
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    // A finished (or archived) task's line of work takes the message: its live latest round, or a
    // next round started for this message (next-round.ts); the finished rounds are not written to.
    const target = await continueLine(tx, emit, viewer, chosen, { id: messageId, text: message.text });
    const taskId = target.id;
    if (message.taskId === taskId) throw conflict('The message is already with this task');
    const ids = [taskId, ...(message.taskId ? [message.taskId] : [])].sort();
    for (const id of ids) await lockTask(tx, id);
    const actor = { kind: 'USER' as const, id: viewer.userId };
    if (message.taskId && message.inboxItemId) {
      const old = await tx.inboxItem.findUniqueOrThrow({ where: { id: message.inboxItemId } });
      if (!old.consumedAt && !old.withdrawnAt) await tx.inboxItem.update({ where: { id: old.id }, data: { withdrawnAt: new Date() } });
      emit(message.taskId, { type: 'MESSAGE_REROUTED', actor, payload: { messageId, to: taskId, wasRead: !!old.consumedAt } });
    }
    const item = await tx.inboxItem.create({
      data: { taskId, workspaceId: target.workspaceId, kind: 'MESSAGE', text: message.text, authorUserId: viewer.userId, idempotencyKey: `reroute:${messageId}:${Date.now()}` },
    });
    const previous = await tx.routeDecision.findFirst({ where: { messageId, supersededAt: null }, orderBy: { createdAt: 'desc' } });
    if (previous) await tx.routeDecision.update({ where: { id: previous.id }, data: { supersededAt: new Date() } });
    await tx.routeDecision.create({
      data: {
        messageId,
        workspaceId: message.workspaceId,
        outcome: 'EXISTING_TASK',
        method: 'DETERMINISTIC',
        taskId,
        candidates: [],
        reason: `corrected by the user${previous ? ` (was ${previous.outcome}${previous.taskId ? ` to another task` : ''})` : ''}`,
        indexSize: 0,
        correctedBy: viewer.userId,
      },
    });
    emit(taskId, { type: 'MESSAGE_RECEIVED', actor, payload: { messageId, inboxItemId: item.id, text: message.text, rerouted: true } });
    // A plan, pick or price card the task waits on is answered by this message instead (supersede.ts).
    await supersedeWaitingCards(tx, emit, deps.scheduler, { taskId, actor, instruction: { kind: 'MESSAGE', text: message.text, inboxItemId: item.id, messageId } });
    // The move answers the message's own open card ("which task is this for?"), so that answering
    // it afterwards cannot deliver the message a second time (answer-card.ts refuses an answered card).
    const asked = await tx.card.findFirst({ where: { messageId, status: 'OPEN' } });
    if (asked) {
      const picked = (asked.options as { id: string; taskId?: string | null }[]).find((o) => o.taskId === taskId);
      await tx.card.update({ where: { id: asked.id }, data: { status: 'RESOLVED', choice: picked?.id ?? null, resolvedAt: new Date(), answeredById: viewer.userId } });
    }
    await tx.task.update({ where: { id: taskId }, data: { lastActivityAt: new Date() } });
    if (['QUEUED', 'RUNNING', 'WAITING'].includes(target.status)) await ensureTurn(tx, deps.scheduler, target);
    return tx.message.update({ where: { id: messageId }, data: { taskId, inboxItemId: item.id } });
  });
  return value;
}
