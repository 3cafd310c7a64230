// The checklist store: each change is a new immutable version (task_checklists), the task row holds
// the current number, and a CHECKLIST_UPDATED event carries the whole list (the task-state fold and
// replay rebuild it from there). Writes lock the task row, so versions are gap-free; a tool's
// write is idempotent by its call key.
import type { Actor } from '../../channel/types.ts';
import type { Emit } from '../../channel/unit-of-work.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { Prisma } from '../../db/generated/client.ts';
import { ChecklistItemSchema, type Checklist, type ChecklistItem } from '../../domain/checklist.ts';
import { lockChecklistVersion } from '../tasks/statements.ts';
import { sealForTask } from '../sealing/scope.ts';
import { opened } from '../sealing/open.ts';

// Checklist text a task wrote with memory in its context is sealed (store/sealing); every read
// here opens it, so callers see plaintext or the withheld marker, never ciphertext.

/**
 * A step's order count is derived from its jobs, never counted: the live and delivered jobs ordered
 * for the step's current round (failed and cancelled ones do not count). A crash between an order
 * and its count, or a failure before it, can therefore never leave a phantom or a lost order.
 */
export async function withDerivedOrders(db: Pick<Tx, 'generationJob'>, taskId: string, items: ChecklistItem[]): Promise<ChecklistItem[]> {
  if (!items.length) return items;
  const jobs = await db.generationJob.findMany({
    where: { taskId, status: { notIn: ['FAILED', 'CANCELLED'] } },
    select: { params: true },
  });
  const counts = new Map<string, number>();
  for (const j of jobs) {
    const p = (j.params ?? {}) as { checklistItemId?: string; checklistRound?: number };
    if (!p.checklistItemId) continue;
    const k = `${p.checklistItemId}\u0000${p.checklistRound ?? 0}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return items.map((i) => {
    const ordered = counts.get(`${i.id}\u0000${i.round}`) ?? 0;
    return ordered === i.ordered ? i : { ...i, ordered };
  });
}

export async function readChecklist(tx: Pick<Tx, 'task' | 'taskChecklist' | 'generationJob'>, taskId: string): Promise<Checklist | null> {
  const task = await tx.task.findUnique({ where: { id: taskId }, select: { checklistVersion: true } });
  if (!task || task.checklistVersion === 0) return null;
  const [row] = await opened(tx as Db, [await tx.taskChecklist.findUniqueOrThrow({ where: { taskId_version: { taskId, version: task.checklistVersion } } })]);
  const items = (row!.items as unknown[]).map((i) => ChecklistItemSchema.parse(i));
  return { version: row!.version, items: await withDerivedOrders(tx, taskId, items) };
}

export async function readChecklistVersion(tx: Pick<Tx, 'taskChecklist'>, taskId: string, version: number): Promise<Checklist | null> {
  const found = await tx.taskChecklist.findUnique({ where: { taskId_version: { taskId, version } } });
  const row = found ? (await opened(tx as Db, [found]))[0]! : null;
  return row ? { version: row.version, items: (row.items as unknown[]).map((i) => ChecklistItemSchema.parse(i)) } : null;
}

export type WriteResult = { checklist: Checklist; written: boolean };

/**
 * Writes a new version unless `callKey` already wrote one (then returns that). `change` gets the
 * current items (empty when none) and returns the next ones; returning the same items writes nothing.
 */
export async function writeChecklist(
  tx: Tx,
  emit: Emit,
  args: { taskId: string; actor: Actor; reason: string; callKey?: string | null; baseVersion?: number },
  change: (current: ChecklistItem[], version: number) => ChecklistItem[],
): Promise<WriteResult> {
  const locked = await lockChecklistVersion(tx, args.taskId);
  if (!locked[0]) throw new Error(`task ${args.taskId} not found`);
  if (args.callKey) {
    const prior = await tx.taskChecklist.findUnique({ where: { taskId_callKey: { taskId: args.taskId, callKey: args.callKey } } });
    if (prior) return { checklist: { version: prior.version, items: (await opened(tx, [prior]))[0]!.items as ChecklistItem[] }, written: false };
  }
  const version = locked[0].checklist_version;
  const current = version ? ((await readChecklistVersion(tx, args.taskId, version))?.items ?? []) : [];
  const next = await withDerivedOrders(tx, args.taskId, change(current, version).map((i) => ChecklistItemSchema.parse(i)));
  if (version && JSON.stringify(next) === JSON.stringify(current)) return { checklist: { version, items: current }, written: false };
  const v = version + 1;
  await tx.taskChecklist.create({
    data: {
      taskId: args.taskId,
      version: v,
      items: (await sealForTask(tx, args.taskId, next)) as unknown as Prisma.InputJsonValue,
      reason: await sealForTask(tx, args.taskId, args.reason.slice(0, 500)),
      authorKind: args.actor.kind,
      authorId: args.actor.id ?? null,
      callKey: args.callKey ?? null,
    },
  });
  await tx.task.update({ where: { id: args.taskId }, data: { checklistVersion: v } });
  emit(args.taskId, { type: 'CHECKLIST_UPDATED', actor: args.actor, payload: { version: v, reason: args.reason.slice(0, 500), items: next } });
  return { checklist: { version: v, items: next }, written: true };
}
