// Statements over forks (domain/forks.ts): a fork is a task that shares the log of the task it was
// forked from up to `forked_at_seq` and has its own after it. Invariants:
//  - a fork's own events start at forked_at_seq + 1 (its counter starts there), so its history —
//    the original's events 1..forked_at_seq, then its own — is one gap-free seq space;
//  - creating a fork never writes to the original: not its row, log, checklist, ledger or objects
//    (the original's row is only read, never locked);
//  - the shared prefix is read from the original's append-only log, so it reads the same however
//    often it is read and whatever the original does after the fork;
//  - every read names the workspace, and an ancestor of another workspace is never read.
import type { Db, Tx } from '../../db/client.ts';
import type { Prisma, Task } from '../../db/generated/client.ts';
import { toRow } from '../../channel/event-feed.ts';
import type { EventRow } from '../../channel/types.ts';
import { ChecklistItemSchema, type ChecklistItem } from '../../domain/checklist.ts';
import type { ForkLogEntry, ForkPick } from '../../domain/forks.ts';
import type { RoundsContext } from '../../domain/rounds.ts';
import { markSeen } from '../objects/store.ts';
import { refreshTaskSealingKey } from '../sealing/keys.ts';
import { opened } from '../sealing/open.ts';
import { sealForTask } from '../sealing/scope.ts';

/** What reading a task's history needs of its row. */
export type HistoryTask = Pick<Task, 'id' | 'workspaceId' | 'forkedFromId' | 'forkedAtSeq'>;
const HISTORY_SELECT = { id: true, workspaceId: true, forkedFromId: true, forkedAtSeq: true } as const;

/** The task a fork was forked from, when it is still there and in the same workspace. */
async function parentOf(db: Db, task: HistoryTask): Promise<HistoryTask | null> {
  if (!task.forkedFromId || task.forkedAtSeq === null) return null;
  return db.task.findFirst({ where: { id: task.forkedFromId, workspaceId: task.workspaceId }, select: HISTORY_SELECT });
}

/**
 * A page of a task's history after `after` (at most `take` events, in seq order, up to `upTo`): for
 * a fork, the shared events of the task it was forked from (recursively, for a fork of a fork),
 * then its own. Sequenced events only, like every read that hands events on (the caller sequences
 * first when its own newest events may not have a position yet).
 */
export async function historyPage(
  db: Db,
  task: HistoryTask,
  after: number,
  take: number,
  types: readonly string[] | null = null,
  upTo: number | null = null,
): Promise<{ rows: EventRow[]; more: boolean }> {
  const rows: EventRow[] = [];
  const shared = task.forkedAtSeq ?? 0;
  if (after < shared) {
    const parent = await parentOf(db, task);
    if (parent) {
      const head = await historyPage(db, parent, after, take, types, Math.min(upTo ?? shared, shared));
      rows.push(...head.rows);
      if (head.more) return { rows, more: true };
    }
  }
  if (rows.length >= take) return { rows: rows.slice(0, take), more: true };
  const own = await db.taskEvent.findMany({
    where: {
      workspaceId: task.workspaceId,
      taskId: task.id,
      seq: { gt: Math.max(after, shared), ...(upTo !== null ? { lte: upTo } : {}) },
      NOT: { position: null },
      ...(types ? { type: { in: [...types] } } : {}),
    },
    orderBy: { seq: 'asc' },
    take: take - rows.length + 1,
  });
  const more = own.length > take - rows.length;
  rows.push(...own.slice(0, take - rows.length).map(toRow));
  return { rows, more };
}

/** Whether some of the task's own events have no workspace position yet (the sequencer has not run). */
export async function hasUnsequenced(db: Db, task: HistoryTask, after: number): Promise<boolean> {
  return (await db.taskEvent.count({ where: { workspaceId: task.workspaceId, taskId: task.id, seq: { gt: after }, position: null } })) > 0;
}

/**
 * The checklist updates, turn starts and model decisions of a task's whole history (its shared
 * prefix included), with each update's items opened: what the fork point is found in.
 */
export async function readForkLog(db: Db, task: HistoryTask, upTo: number): Promise<ForkLogEntry[]> {
  const out: ForkLogEntry[] = [];
  const shared = task.forkedAtSeq ?? 0;
  const parent = await parentOf(db, task);
  if (parent) out.push(...(await readForkLog(db, parent, Math.min(upTo, shared))));
  const rows = await db.taskEvent.findMany({
    where: { workspaceId: task.workspaceId, taskId: task.id, seq: { gt: shared, lte: upTo }, type: { in: ['CHECKLIST_UPDATED', 'TURN_STARTED', 'STEP_DECIDED'] } },
    orderBy: { seq: 'asc' },
    select: { seq: true, type: true, payload: true, payloadHash: true },
  });
  const hashes = [...new Set(rows.filter((r) => r.type === 'CHECKLIST_UPDATED' && r.payloadHash).map((r) => r.payloadHash!))];
  const bodies = hashes.length ? new Map((await db.eventPayload.findMany({ where: { hash: { in: hashes } } })).map((b) => [b.hash, b.body])) : new Map<string, unknown>();
  // Checklist text written while memory was in context is sealed: opened (or read withheld) here.
  const payloads = await opened(
    db,
    rows.map((r) => (r.type === 'CHECKLIST_UPDATED' ? (r.payloadHash ? bodies.get(r.payloadHash) : r.payload) : null)),
  );
  rows.forEach((r, k) => {
    const items = (payloads[k] as { items?: unknown[] } | null)?.items;
    out.push({
      seq: r.seq,
      type: r.type,
      ...(Array.isArray(items) ? { items: items.map((i) => ChecklistItemSchema.parse(i)).map((i) => ({ id: i.id, status: i.status, artifacts: i.artifacts })) } : {}),
    });
  });
  return out;
}

/** The option a person can pick at a pick step: its id, words and candidate object. */
export type PickOption = { id: string; label: string; objectId: string | null };
/** A pick card of a task's step (the latest, a CHOOSE with options), and what was chosen on it. */
export type PickCard = { id: string; status: string; choice: string | null; options: PickOption[] };

/** The latest pick card (a checkpoint with at least two options) the task raised for a step. */
export async function readPickCard(db: Db, task: Pick<Task, 'id' | 'workspaceId'>, stepId: string): Promise<PickCard | null> {
  // The card's action names its step; it may be sealed like the rest of the card, so the cards are
  // opened first and matched here rather than by a JSON filter in SQL.
  const cards = await opened(
    db,
    await db.approval.findMany({
      where: { workspaceId: task.workspaceId, taskId: task.id, kind: 'CHECKPOINT' },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true, status: true, choice: true, options: true, action: true },
    }),
  );
  for (const c of cards) {
    if ((c.action as { itemId?: unknown } | null)?.itemId !== stepId) continue;
    const options = ((c.options ?? []) as { id?: unknown; label?: unknown; objectId?: unknown }[])
      .filter((o) => typeof o.id === 'string')
      .map((o) => ({ id: String(o.id), label: typeof o.label === 'string' ? o.label : String(o.id), objectId: typeof o.objectId === 'string' ? o.objectId : null }));
    if (options.length >= 2) return { id: c.id, status: c.status, choice: c.choice, options };
  }
  return null;
}

/** The picks people made on the task's steps among `steps` (answered pick cards), in checklist order. */
export async function readPicks(db: Db, task: Pick<Task, 'id' | 'workspaceId'>, steps: readonly ChecklistItem[]): Promise<ForkPick[]> {
  const out: ForkPick[] = [];
  for (const s of steps.filter((i) => i.kind === 'CHECKPOINT')) {
    const card = await readPickCard(db, task, s.id);
    const o = card?.status === 'APPROVED' && card.choice ? card.options.find((x) => x.id === card.choice) : undefined;
    if (o) out.push({ stepId: s.id, stepTitle: s.title, optionId: o.id, label: o.label, objectId: o.objectId });
  }
  return out;
}

export type NewFork = {
  original: Task;
  /** The fork's own title (domain/forks.ts forkTitle): its direction is told apart from the original's in a list. */
  title: string;
  createdById: string;
  paidActions: Task['paidActions'];
  atStep: number;
  atSeq: number;
  idempotencyKey: string | null;
  inherited: RoundsContext;
  /** The plan the fork starts with counts as approved by the person who forked (approve scope). */
  approvedBudgetCents: number | null;
};

/**
 * Inserts the fork's row. Its event counter starts at the fork point (its first event is
 * atSeq + 1), the original's settings for this work go on with it (budgets are its own), and it
 * gets a sealing key covering what it inherits before anything inherited is written.
 */
export async function insertFork(tx: Tx, f: NewFork): Promise<Task> {
  const o = f.original;
  const task = await tx.task.create({
    data: {
      workspaceId: o.workspaceId,
      createdById: f.createdById,
      title: f.title,
      goal: o.goal,
      kind: 'PERSISTENT',
      language: o.language,
      paidActions: f.paidActions,
      autonomy: o.autonomy,
      perActionFreeCents: o.perActionFreeCents,
      inputPolicy: o.inputPolicy,
      forkedFromId: o.id,
      forkedAtStep: f.atStep,
      forkedAtSeq: f.atSeq,
      lastEventSeq: f.atSeq,
      idempotencyKey: f.idempotencyKey,
    },
  });
  await refreshTaskSealingKey(tx, task.id);
  const inherited = await sealForTask(tx, task.id, f.inherited);
  return tx.task.update({
    where: { id: task.id },
    data: {
      inherited: inherited as unknown as Prisma.InputJsonValue,
      ...(f.approvedBudgetCents !== null ? { approvedBudgetCents: f.approvedBudgetCents } : {}),
    },
  });
}

/**
 * The fork's fold starts at the fork point: a snapshot at atSeq of a task that has done nothing
 * yet, so loading its state (runtime/task-state.ts) folds only its own events, which start there.
 */
export async function insertForkSnapshot(tx: Tx, taskId: string, atSeq: number, state: unknown): Promise<void> {
  await tx.taskSnapshot.create({ data: { taskId, seq: atSeq, state: (await sealForTask(tx, taskId, state)) as Prisma.InputJsonValue } });
}

/** The fork's references to the objects it shares with the original (never copies), at their current versions. */
export async function referenceShared(tx: Tx, task: Pick<Task, 'id' | 'workspaceId'>, objectIds: readonly string[]): Promise<void> {
  if (!objectIds.length) return;
  const objects = await tx.workspaceObject.findMany({ where: { workspaceId: task.workspaceId, id: { in: [...objectIds] }, deletedAt: null }, select: { id: true, currentVersion: true } });
  // Seen at the version shared: a later edit by someone else leaves the fork a change notice.
  for (const o of objects) await markSeen(tx, task.id, o.id, o.currentVersion);
}

/** A fork made with this stored key in the workspace, if any. */
export function findForkByKey(db: Db, workspaceId: string, key: string): Promise<Task | null> {
  return db.task.findUnique({ where: { workspaceId_idempotencyKey: { workspaceId, idempotencyKey: key } } });
}

/** The forks of a task, oldest first. */
export function forksOf(db: Db, task: Pick<Task, 'id' | 'workspaceId'>): Promise<Task[]> {
  return db.task.findMany({ where: { workspaceId: task.workspaceId, forkedFromId: task.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/**
 * A task and the tasks it was forked from, nearest first (a fork of a fork of … ), in its
 * workspace: whose results a step of the task may reuse.
 */
export async function forkLineage(db: Db, taskId: string, workspaceId: string): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    `WITH RECURSIVE up(id, parent, depth) AS (
       SELECT id, forked_from_id, 0 FROM tasks WHERE id = $1::uuid AND workspace_id = $2::uuid
       UNION ALL
       SELECT t.id, t.forked_from_id, up.depth + 1 FROM tasks t JOIN up ON t.id = up.parent
        WHERE t.workspace_id = $2::uuid AND up.depth < 50)
     SELECT id::text FROM up ORDER BY depth`,
    taskId,
    workspaceId,
  );
  return rows.map((r) => r.id);
}
