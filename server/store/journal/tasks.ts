// The task row's columns the runtime reads and writes besides its status (status moves only through
// store/tasks/apply-transition.ts). Writes run in the runtime's transactions with the task row
// already locked, so read-modify-write sequences here (the progress mark) cannot interleave.
import { openOne } from '../sealing/open.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { RoundsContext } from '../../domain/rounds.ts';

/**
 * The brief a request starts with: title, goal, the language to reply in, and for a next round what
 * it inherited from the earlier rounds of its line (frozen at its creation, domain/rounds.ts).
 */
export async function readTaskBrief(db: Db, taskId: string): Promise<{ title: string; goal: string; language: string | null; inherited: RoundsContext | null }> {
  const t = await db.task.findUniqueOrThrow({ where: { id: taskId }, select: { title: true, goal: true, language: true, inherited: true } });
  // What a next round inherited is sealed when its line had memory in context (store/sealing).
  const inherited = t.inherited ? (await openOne(db, t.inherited)).value : null;
  return { title: t.title, goal: t.goal, language: t.language, inherited: (inherited as RoundsContext | null) ?? null };
}

/**
 * What a new plan is compared with: the task's kind, the plan version a person approved and the
 * budget they approved with it. Read in the plan's transaction, after the checklist write locked the
 * task row, so no approval lands between the read and the decision.
 */
export async function readPlanApproval(tx: Tx, taskId: string): Promise<{ kind: string; planApprovedVersion: number | null; approvedBudgetCents: number | null }> {
  return tx.task.findUniqueOrThrow({ where: { id: taskId }, select: { kind: true, planApprovedVersion: true, approvedBudgetCents: true } });
}

/** The last progress mark (what was done when a turn last ended) and the turns since without progress. */
export async function readProgressMark(tx: Tx, taskId: string): Promise<{ idleTurns: number; progressMark: string | null }> {
  return tx.task.findUniqueOrThrow({ where: { id: taskId }, select: { idleTurns: true, progressMark: true } });
}

/** Records the mark and the idle-turn count the continuation decision was made from. */
export async function recordProgressMark(tx: Tx, taskId: string, mark: { idleTurns: number; progressMark: string }): Promise<void> {
  await tx.task.update({ where: { id: taskId }, data: { idleTurns: mark.idleTurns, progressMark: mark.progressMark } });
}

/** The delivery's text on the task, written in the transaction that completes it. */
export async function writeTaskSummary(tx: Tx, taskId: string, summary: string): Promise<void> {
  await tx.task.update({ where: { id: taskId }, data: { summary } });
}
