// A person's instruction that reaches a task while it waits on a card — a plan to approve, a
// candidate to pick, a price to confirm — answers the moment differently than the card's buttons:
// "make it five posters", "use the darker blue", a message the router sends to the task. The card
// would otherwise stay open while the instruction sat unread behind it (the waiting call is replayed
// and waits again), so the instruction sets the card aside in the transaction that delivers it: the
// card becomes SUPERSEDED (final, like any decision; the note says which instruction), the task
// wakes, and the waiting call, replayed, reports the card as superseded instead of waiting. The next
// step reads the instruction and asks again with a new card if it still needs one. Cards that ask
// about something else than the task's own course (irreversible actions) are left alone.
import type { Actor } from '../../channel/types.ts';
import type { Emit } from '../../channel/unit-of-work.ts';
import type { Tx } from '../../db/client.ts';
import { textsFor } from '../../domain/replies/texts.ts';
import { isTerminal } from '../../domain/task-status.ts';
import type { Scheduler } from '../scheduler.ts';
import { applyTransition, lockTask } from '../tasks/apply-transition.ts';
import { ensureTurn } from '../turns.ts';
import { lockApproval, pendingCardsOfTask } from './statements.ts';

/** The cards an instruction to the task answers: its plan, its checkpoints, its prices. */
export const SUPERSEDABLE_KINDS = ['PLAN', 'CHECKPOINT', 'PAID_ACTION'] as const;

export type Instruction = {
  /** How it came: a revision or added context (signalTask), or a message delivered to the task. */
  kind: 'REVISE' | 'ADD_CONTEXT' | 'MESSAGE';
  text: string;
  inboxItemId: string;
  messageId?: string | null;
};

const WORDS: Record<Instruction['kind'], string> = { REVISE: 'your revision', ADD_CONTEXT: 'the context you added', MESSAGE: 'your message' };

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The note a superseded card keeps: which instruction set it aside, in words of the task's language. */
export const supersededNote = (i: Pick<Instruction, 'kind' | 'text'>, language?: string | null) =>
  textsFor(language).supersededNote(i.kind, clip(i.text.replace(/\s+/g, ' ').trim(), 300));

/**
 * Marks the task's open plan, checkpoint and price cards SUPERSEDED by `instruction` and wakes a
 * waiting task so that its next step reads the instruction. Locks the task row first, then each
 * card (the lock order of resolveApproval), so a person's concurrent decision and this either see
 * each other or one waits: a card is decided once, by whichever commits first. Returns the ids of
 * the cards set aside (none when nothing was waiting, or the task has ended).
 */
export async function supersedeWaitingCards(
  tx: Tx,
  emit: Emit,
  scheduler: Scheduler,
  args: { taskId: string; actor: Actor; instruction: Instruction },
): Promise<string[]> {
  const task = await lockTask(tx, args.taskId);
  if (!task || isTerminal(task.status)) return [];
  const open = await pendingCardsOfTask(tx, args.taskId, SUPERSEDABLE_KINDS);
  if (!open.length) return [];
  const { language } = (await tx.task.findUnique({ where: { id: args.taskId }, select: { language: true } })) ?? { language: null };
  const note = supersededNote(args.instruction, language);
  const done: string[] = [];
  for (const card of open) {
    await lockApproval(tx, card.id);
    // Under the card's lock: a decision that committed meanwhile stays, this one does nothing.
    const moved = await tx.approval.updateMany({ where: { id: card.id, status: 'PENDING' }, data: { status: 'SUPERSEDED', resolvedAt: new Date(), note } });
    if (!moved.count) continue;
    done.push(card.id);
    emit(args.taskId, {
      type: 'APPROVAL_RESOLVED',
      actor: args.actor,
      payload: {
        approvalId: card.id,
        kind: card.kind,
        status: 'SUPERSEDED',
        title: card.title,
        note,
        instruction: { kind: args.instruction.kind, text: clip(args.instruction.text, 1000), inboxItemId: args.instruction.inboxItemId, messageId: args.instruction.messageId ?? null },
      },
    });
  }
  if (done.length && task.status === 'WAITING') {
    // It waited on the person; the person has spoken. A paused task reads it when resumed.
    await applyTransition(tx, emit, { taskId: args.taskId, from: task.status, transition: 'requeue', actor: args.actor, reason: `${WORDS[args.instruction.kind]} came before the card was answered` });
    await ensureTurn(tx, scheduler, { id: args.taskId, workspaceId: task.workspaceId });
  }
  return done;
}
