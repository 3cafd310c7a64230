// Statements over lines of work (domain/rounds.ts): a line is a chain of tasks linked by
// previous_round_id, each with its own terminal state. Invariants: a round has at most one next
// round (previous_round_id is unique), a next round is created only with its previous round's row
// locked (so two follow-ups to one ended round make one next round), and creating a next round never
// writes to the rounds before it (their rows, events and journals stay as they ended).
import { opened } from '../sealing/open.ts';
import { openOne } from '../sealing/open.ts';
import { refreshTaskSealingKey } from '../sealing/keys.ts';
import { sealForTask } from '../sealing/scope.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { Prisma, Task } from '../../db/generated/client.ts';
import { ChecklistItemSchema } from '../../domain/checklist.ts';
import type { RoundRecord, RoundsContext } from '../../domain/rounds.ts';
import { lockTaskStatus } from './statements.ts';

/** The id of a task's line: its first round's. */
export const lineIdOf = (t: { id: string; lineId: string | null }) => t.lineId ?? t.id;

/** The latest round of a task's line (the task itself when it is the latest). */
export async function lineHead(db: Db, task: { id: string; lineId: string | null }): Promise<Task> {
  const line = lineIdOf(task);
  return db.task.findFirstOrThrow({ where: { OR: [{ id: line }, { lineId: line }] }, orderBy: { round: 'desc' } });
}

/**
 * The latest round of the line, with its row locked for the rest of the transaction. A round made
 * between the read and the lock is found by reading again under the lock.
 */
export async function lockLineHead(tx: Tx, task: { id: string; lineId: string | null }): Promise<Task> {
  let head = (await lineHead(tx, task)).id;
  for (;;) {
    await lockTaskStatus(tx, head);
    const next = await tx.task.findUnique({ where: { previousRoundId: head }, select: { id: true } });
    if (!next) return tx.task.findUniqueOrThrow({ where: { id: head } });
    head = next.id;
  }
}

/** Every round of a line, first to latest, in the given workspaces. */
export function lineRounds(db: Db, lineId: string, workspaceIds: readonly string[]): Promise<Task[]> {
  return db.task.findMany({ where: { OR: [{ id: lineId }, { lineId }], workspaceId: { in: [...workspaceIds] } }, orderBy: { round: 'asc' } });
}

/** A next round's key: the round it follows and the message that started it. */
export const roundKey = (previousRoundId: string, messageId: string) => `round:${previousRoundId}:${messageId}`;

/**
 * An ended (or archived) round as the next one inherits it: its brief and outcome, its latest
 * checklist with results, the decisions people made on its cards, and the objects it references.
 */
export async function readRoundRecord(db: Db, task: Task): Promise<RoundRecord> {
  const checklist = task.checklistVersion
    ? await db.taskChecklist.findUnique({ where: { taskId_version: { taskId: task.id, version: task.checklistVersion } }, select: { items: true } })
    : null;
  const items = (((await openOne(db, checklist?.items ?? [])).value) as unknown[]).map((i) => ChecklistItemSchema.parse(i));
  const approvals = await opened(db, await db.approval.findMany({
    where: { taskId: task.id, kind: { in: ['PLAN', 'CHECKPOINT', 'PAID_ACTION'] } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { kind: true, title: true, status: true, choice: true, options: true, note: true },
  }));
  const refs = await db.taskObjectRef.findMany({ where: { taskId: task.id }, orderBy: [{ createdAt: 'asc' }, { objectId: 'asc' }], select: { objectId: true } });
  const objects = refs.length
    ? await db.workspaceObject.findMany({
        where: { id: { in: refs.map((r) => r.objectId).filter((id) => /^[0-9a-f-]{36}$/i.test(id)) }, workspaceId: task.workspaceId, deletedAt: null },
        select: { id: true, kind: true, name: true, currentVersion: true },
      })
    : [];
  const order = new Map(refs.map((r, k) => [r.objectId, k]));
  return {
    round: task.round,
    taskId: task.id,
    title: task.title,
    goal: task.goal,
    status: task.status,
    statusReason: task.statusReason,
    summary: task.summary,
    language: task.language,
    archived: task.archivedAt !== null,
    checklist: items.map((i) => ({ id: i.id, title: i.title, kind: i.kind, count: i.count, status: i.status, results: i.artifacts, evidence: i.evidence })),
    decisions: approvals.map((a) => ({
      kind: a.kind,
      title: a.title,
      status: a.status,
      choice: a.choice ? (((a.options ?? []) as { id: string; label?: string }[]).find((o) => o.id === a.choice)?.label ?? a.choice) : null,
      note: a.note,
    })),
    objects: objects
      .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
      .map((o) => ({ id: o.id, kind: o.kind, name: o.name, version: o.currentVersion })),
  };
}

/** Inserts the next round of `previous` (whose row the caller has locked). */
export async function insertNextRound(
  tx: Tx,
  previous: Task,
  round: { createdById: string; paidActions: Task['paidActions']; goal: string; language: string | null; inherited: RoundsContext; messageId: string },
): Promise<Task> {
  const task = await tx.task.create({
    data: {
      workspaceId: previous.workspaceId,
      createdById: round.createdById,
      title: previous.title,
      goal: round.goal,
      kind: 'PERSISTENT',
      language: round.language,
      paidActions: round.paidActions,
      // The person's own settings for this work go on with it; budgets are per round.
      autonomy: previous.autonomy,
      perActionFreeCents: previous.perActionFreeCents,
      previousRoundId: previous.id,
      lineId: lineIdOf(previous),
      round: previous.round + 1,
      idempotencyKey: roundKey(previous.id, round.messageId),
    },
  });
  // The earlier rounds' memory goes on with the line: the new round gets a key covering it before
  // anything it inherits is written, so the inherited context (and its TASK_CREATED event) is sealed.
  await refreshTaskSealingKey(tx, task.id);
  const inherited = await sealForTask(tx, task.id, round.inherited);
  await tx.task.update({ where: { id: task.id }, data: { inherited: inherited as unknown as Prisma.InputJsonValue } });
  return { ...task, inherited: round.inherited as unknown as Prisma.JsonValue };
}

/** A round's inherited context as stored (null on a first round). */
export const inheritedOf = (task: { inherited: unknown }): RoundsContext | null => (task.inherited as RoundsContext | null) ?? null;
