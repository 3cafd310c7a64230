// Typed signals to a task, applied at the next safe boundary of its worker:
//   PAUSE / RESUME / CANCEL change the task's state now (the worker notices at its next boundary;
//   RESUME schedules a new turn); REVISE / ADD_CONTEXT go to the task's inbox and are read by the
//   next step (a turn is scheduled if none is live); a plan, pick or price card the task waits on is
//   set aside by them (store/approvals/supersede.ts). CANCEL is idempotent. The same idempotency key
//   never applies a signal twice: it is recorded in the inbox with a unique (task, key).
import { z } from 'zod';
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents, withAppendedSeq } from '../../channel/unit-of-work.ts';
import type { Deps } from '../deps.ts';
import { isTerminal } from '../../domain/task-status.ts';
import { badInput, conflict, notFound, taskBusy } from '../../errors.ts';
import { ensureTurn } from '../../store/turns.ts';
import { parseInput } from '../validate.ts';
import { checkIdempotencyKey, claimOf, clientKey, recordIdempotencyKey } from '../../store/idempotency.ts';
import { applyTransition, lockTask } from '../../store/tasks/apply-transition.ts';
import { insertSignal } from '../../store/tasks/inbox.ts';
import { supersedeWaitingCards } from '../../store/approvals/supersede.ts';
import { loadTaskFor } from './load-task.ts';
import { INPUT_POLICIES } from '../../domain/input-policy.ts';
import { isTaskBusy } from '../../store/journal/waits.ts';

export const SignalTaskInput = z
  .object({
    taskId: z.string().uuid(),
    signal: z.enum(['PAUSE', 'RESUME', 'CANCEL', 'REVISE', 'ADD_CONTEXT']),
    reason: z.string().trim().max(2000).optional(),
    /** The instruction or context for REVISE / ADD_CONTEXT. */
    text: z.string().trim().min(1).max(20_000).optional(),
    idempotencyKey: z.string().min(1).max(200).optional(),
    /** For REVISE / ADD_CONTEXT: what the instruction does to a run under way (absent: the task's policy). */
    inputPolicy: z.enum(INPUT_POLICIES).optional(),
  })
  .refine((s) => !(s.signal === 'REVISE' || s.signal === 'ADD_CONTEXT') || !!s.text, {
    message: 'REVISE and ADD_CONTEXT need text',
    path: ['text'],
  });

const transitionOf = { PAUSE: 'pause', RESUME: 'resume', CANCEL: 'cancel' } as const;

export async function signalTask(deps: Deps, viewer: Viewer, raw: z.input<typeof SignalTaskInput>) {
  const input = parseInput(SignalTaskInput, raw);
  const target = await loadTaskFor(deps.prisma, viewer, input.taskId, 'write');
  // The key names this signal: the same key with another signal, task or text is refused.
  const claim = claimOf('signalTask', { workspaceId: target.workspaceId, userId: viewer.userId }, input);
  if (claim) await checkIdempotencyKey(deps.prisma, claim);
  const actor = { kind: 'USER' as const, id: viewer.userId };
  const { value, events } = await transactWithEvents(deps, async (tx, emit) => {
    const current = await lockTask(tx, input.taskId);
    if (!current) throw notFound('Task');
    if (claim) await recordIdempotencyKey(tx, claim);
    const inboxSignal = input.signal === 'REVISE' || input.signal === 'ADD_CONTEXT';
    // REJECT: a busy task refuses the instruction; nothing is filed (the transaction rolls back).
    if (inboxSignal && !isTerminal(current.status) && (input.inputPolicy ?? target.inputPolicy) === 'REJECT' && (await isTaskBusy(tx, input.taskId))) {
      throw taskBusy(target.title);
    }
    let itemId: string | null = null;
    if (input.idempotencyKey || inboxSignal) {
      const inserted = await insertSignal(tx, {
        taskId: input.taskId,
        workspaceId: current.workspaceId,
        signal: input.signal,
        text: input.text ?? input.reason ?? null,
        authorUserId: viewer.userId,
        // Namespaced: the server writes its own inbox keys (`approval:<id>`, `job:<id>`).
        idempotencyKey: input.idempotencyKey ? clientKey(input.idempotencyKey) : null,
        // State signals are applied right here; only inbox signals wait for a step to read them.
        consumedAt: inboxSignal ? null : new Date(),
        inputPolicy: inboxSignal ? (input.inputPolicy ?? null) : null,
      });
      if (!inserted[0]) return tx.task.findUniqueOrThrow({ where: { id: input.taskId } }); // already applied
      itemId = inserted[0].id;
    }
    if (inboxSignal) {
      if (isTerminal(current.status)) throw conflict(`Task already ended as ${current.status}`, { status: current.status });
      emit(input.taskId, {
        type: 'SIGNAL_RECEIVED',
        actor,
        payload: { signal: input.signal, text: input.text },
      });
      // A card the task waits on (plan, pick, price) is answered by this instruction instead: set
      // aside, and the task wakes to read the instruction (supersede.ts).
      await supersedeWaitingCards(tx, emit, deps.scheduler, {
        taskId: input.taskId,
        actor,
        instruction: { kind: input.signal as 'REVISE' | 'ADD_CONTEXT', text: input.text!, inboxItemId: itemId! },
      });
      if (current.status !== 'PAUSED') await ensureTurn(tx, deps.scheduler, { id: input.taskId, workspaceId: current.workspaceId });
      return tx.task.findUniqueOrThrow({ where: { id: input.taskId } });
    }
    const d = await applyTransition(tx, emit, {
      taskId: input.taskId,
      from: current.status,
      transition: transitionOf[input.signal as keyof typeof transitionOf],
      actor,
      reason: input.reason ?? null,
    });
    if (d.kind === 'reject') throw conflict(d.reason, { status: d.from });
    const task = await tx.task.findUniqueOrThrow({ where: { id: input.taskId } });
    if (d.kind === 'noop') return task;
    if (input.signal === 'RESUME') await ensureTurn(tx, deps.scheduler, task);
    else {
      // A turn not yet claimed is stopped now; a running one stops at its next boundary (the fence).
      await tx.turn.updateMany({
        where: { taskId: task.id, status: 'QUEUED' },
        data: { status: 'STOPPED', outcome: `task ${task.status.toLowerCase()}`, endedAt: new Date() },
      });
    }
    return task;
  });
  if (!value) throw badInput('Signal could not be applied');
  // A cancel reaches the provider right after this commit (generation/cancel-on-commit.ts).
  return withAppendedSeq(value, events);
}
