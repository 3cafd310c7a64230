// The inbox_items and change_notices tables as the runtime reads and consumes them. An item reaches
// the model once: the step that read it consumes it in the step's own transaction, under the task
// row lock (the fence), so no other step of the task can consume it meanwhile. A withdrawn item is
// never consumed and never shown.
import type { Db, Tx } from '../../db/client.ts';
import type { HistoryInbox, HistoryNotice } from '../../domain/history.ts';

/** Inbox items that reach the model: user messages, REVISE / ADD_CONTEXT signals, job results and the agent's own follow-ups, oldest first. */
export async function loadTaskInbox(db: Db, taskId: string): Promise<HistoryInbox[]> {
  return db.inboxItem.findMany({
    where: {
      taskId,
      withdrawnAt: null,
      OR: [{ kind: 'MESSAGE' }, { kind: 'SIGNAL', signal: { in: ['REVISE', 'ADD_CONTEXT', 'JOB_RESULT', 'FOLLOW_UP'] } }],
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

/** The task's change notices, oldest first, with the object's name as of the notice's version. */
export async function loadTaskNotices(db: Db, taskId: string): Promise<HistoryNotice[]> {
  const rows = await db.changeNotice.findMany({ where: { taskId }, orderBy: [{ createdAt: 'asc' }, { toVersion: 'asc' }, { id: 'asc' }] });
  if (!rows.length) return [];
  const names = await db.objectVersion.findMany({
    where: { OR: rows.map((r) => ({ objectId: r.objectId, version: r.toVersion })) },
    select: { objectId: true, version: true, name: true },
  });
  const nameOf = (o: string, v: number) => names.find((n) => n.objectId === o && n.version === v)?.name ?? 'object';
  return rows.map((r) => ({ ...r, objectName: nameOf(r.objectId, r.toVersion) }));
}

/**
 * Consumes the items a step read, recording which step did. Only items neither consumed nor withdrawn
 * move; the count returned tells the caller whether every item it read was still there.
 */
export async function consumeInboxItems(tx: Tx, ids: string[], by: { turnId: string; step: number }): Promise<number> {
  const n = await tx.inboxItem.updateMany({
    where: { id: { in: ids }, consumedAt: null, withdrawnAt: null },
    data: { consumedTurnId: by.turnId, consumedStep: by.step, consumedAt: new Date() },
  });
  return n.count;
}

/**
 * Consumes the change notices a step read. Notices are never withdrawn, and the caller holds the task
 * row: exactly the notices the model read are marked, exactly once.
 */
export async function consumeChangeNotices(tx: Tx, ids: string[], by: { turnId: string; step: number }): Promise<void> {
  await tx.changeNotice.updateMany({
    where: { id: { in: ids }, consumedAt: null },
    data: { consumedTurnId: by.turnId, consumedStep: by.step, consumedAt: new Date() },
  });
}

/** Items no step has read yet (any kind): a suspending turn goes on at once when one is waiting. */
export async function countUnreadInbox(tx: Tx, taskId: string): Promise<number> {
  return tx.inboxItem.count({ where: { taskId, consumedAt: null, withdrawnAt: null } });
}

/**
 * Unread instructions from the user (messages, REVISE, ADD_CONTEXT; job results excepted): while
 * one waits, nothing may be delivered before a step has read it.
 */
export async function countUnreadFromUser(tx: Tx, taskId: string): Promise<number> {
  return tx.inboxItem.count({
    where: { taskId, consumedAt: null, withdrawnAt: null, OR: [{ kind: 'MESSAGE' }, { kind: 'SIGNAL', signal: { in: ['REVISE', 'ADD_CONTEXT'] } }] },
  });
}

/** The newest unread instruction from the user (a message, REVISE or ADD_CONTEXT), if any. */
export function latestUnreadFromUser(tx: Tx, taskId: string) {
  return tx.inboxItem.findFirst({
    where: { taskId, consumedAt: null, withdrawnAt: null, OR: [{ kind: 'MESSAGE' }, { kind: 'SIGNAL', signal: { in: ['REVISE', 'ADD_CONTEXT'] } }] },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, kind: true, signal: true, text: true, authorUserId: true },
  });
}

/**
 * A job's result as an inbox item, keyed `job:<id>`: (task, key) is unique, so a job's end can be
 * announced to its task only once.
 */
export async function insertJobResult(tx: Tx, item: { taskId: string; workspaceId: string; jobId: string; text: string }): Promise<void> {
  await tx.inboxItem.create({
    data: { taskId: item.taskId, workspaceId: item.workspaceId, kind: 'SIGNAL', signal: 'JOB_RESULT', text: item.text, idempotencyKey: `job:${item.jobId}` },
  });
}
