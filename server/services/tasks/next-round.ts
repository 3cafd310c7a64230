// Iterating on finished work: a message for a task that has ended (completed, failed, cancelled,
// stopped at its budget) or was archived continues its line of work instead of writing into it or
// starting unrelated work. It goes to the line's latest round when that one is still live, else to a
// next round created here (one per round it follows, so once per message) that inherits the earlier
// rounds: their briefs, outcomes, decisions, checklist results and object references
// (domain/rounds.ts). The rounds before it are not written to: each keeps its one terminal state,
// its events and its journal.
import { openOne } from '../../store/sealing/open.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Emit } from '../../channel/unit-of-work.ts';
import type { Tx } from '../../db/client.ts';
import type { Task } from '../../db/generated/client.ts';
import { nextRoundsContext } from '../../domain/rounds.ts';
import { isTerminal } from '../../domain/task-status.ts';
import { inheritedOf, insertNextRound, lineIdOf, lockLineHead, readRoundRecord } from '../../store/tasks/rounds.ts';

/** Whether a task takes messages itself (not ended, not archived). */
export const takesMessages = (t: { status: Task['status']; archivedAt: Date | null }) => !t.archivedAt && !isTerminal(t.status);

/**
 * The task that takes a message addressed to `task`: the task itself while it takes messages;
 * otherwise its line's latest round if that one does, or a new next round whose goal is the message
 * (QUEUED, empty inbox: the caller delivers the message to it and queues its turn, as for any live task).
 */
export async function continueLine(tx: Tx, emit: Emit, viewer: Viewer, task: Task, message: { id: string; text: string }): Promise<Task> {
  if (takesMessages(task)) return task;
  const line = lineIdOf(task);
  // Under the latest round's lock: a concurrent follow-up, or the same message again, finds the
  // round the first one started (live) and goes there; only one next round follows a round.
  const head = await lockLineHead(tx, task);
  if (takesMessages(head)) return head;
  // The head's own inheritance may be sealed (store/sealing): opened before it is carried on.
  const earlier = (await openOne(tx, inheritedOf(head))).value;
  const inherited = nextRoundsContext(earlier, await readRoundRecord(tx, head), line);
  const round = await insertNextRound(tx, head, {
    createdById: viewer.userId,
    paidActions: viewer.paidActions ?? 'WORKSPACE_RULES',
    goal: message.text.slice(0, 10_000),
    language: head.language,
    inherited,
    messageId: message.id,
  });
  emit(round.id, {
    type: 'TASK_CREATED',
    actor: { kind: 'USER', id: viewer.userId },
    payload: {
      title: round.title,
      goal: round.goal,
      status: round.status,
      kind: round.kind,
      language: round.language,
      messageId: message.id,
      round: round.round,
      previousRoundId: head.id,
      lineId: line,
      inherited,
    },
  });
  return round;
}
