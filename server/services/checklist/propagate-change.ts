// A change travels down the production graph. When a person changes an object that finished steps of
// a live task were made from (edits the character sheet), the steps made from it become STALE —
// each with the input that changed — and one card shows the person the impact before anything is
// spent: what would be made again and for how much, what simply waits for the new version, and what
// stays valid. Nothing is re-made until the person agrees (settleImpact, on the card's answer).
//
// Which steps: the graph's downstream of the steps whose result the object is (domain/
// production-graph.ts impactOf), and every step with a result recorded as made from an earlier
// version of the object (object derivations), whatever the plan says. Other branches stay untouched.
//
// Invariants: it runs in the transaction of the person's write, so the new version, the STALE marks
// and the card commit together or not at all; the card is keyed by (task, object, version), so a
// replayed write asks once; only live tasks are touched (a finished task is left as delivered).
import type { Emit } from '../../channel/unit-of-work.ts';
import type { Tx } from '../../db/client.ts';
import { markStale, settleStale, type ChecklistItem } from '../../domain/checklist.ts';
import { impactOf } from '../../domain/production-graph.ts';
import { textsFor } from '../../domain/replies/texts.ts';
import { TERMINAL_STATUSES } from '../../domain/task-status.ts';
import { requestApproval } from '../../store/approvals/request-approval.ts';
import { readChecklist, writeChecklist } from '../../store/checklist/write-checklist.ts';
import { objectIdOfRef } from '../../store/objects/derivations.ts';
import { readTaskBrief } from '../../store/journal/tasks.ts';

/** The card's action: which steps it is about, and the change that made them stale. */
export const IMPACT_ACTION = 'PLAN_IMPACT';
export type ImpactAction = { type: typeof IMPACT_ACTION; kind: 'IMPACT'; itemIds: string[]; objectId: string; version: number; input: string };

const usesObject = (i: ChecklistItem, objectId: string) => i.artifacts.some((a) => objectIdOfRef(a) === objectId);

export async function propagateObjectChange(
  tx: Tx,
  emit: Emit,
  change: { workspaceId: string; objectId: string; version: number; userId: string | null },
): Promise<{ taskId: string; approvalId: string; stale: string[] }[]> {
  const object = await tx.workspaceObject.findUnique({ where: { id: change.objectId }, select: { name: true, createdByKind: true, createdById: true } });
  if (!object) return [];
  // The tasks that may hold steps made from it: those that recorded it as a source, and the task
  // that made it (an agent's document or a generated result names its task).
  const derived = await tx.objectDerivation.findMany({
    where: { workspaceId: change.workspaceId, sourceId: change.objectId, sourceVersion: { lt: change.version }, taskId: { not: null } },
    select: { taskId: true, stepId: true },
  });
  const taskIds = new Set(derived.map((d) => d.taskId!));
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  if ((object.createdByKind === 'AGENT' || object.createdByKind === 'SYSTEM') && object.createdById && UUID.test(object.createdById)) taskIds.add(object.createdById);
  if (!taskIds.size) return [];
  const live = await tx.task.findMany({
    where: { id: { in: [...taskIds] }, workspaceId: change.workspaceId, status: { notIn: [...TERMINAL_STATUSES] } },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
  });
  const out: { taskId: string; approvalId: string; stale: string[] }[] = [];
  for (const { id: taskId } of live) {
    const current = await readChecklist(tx, taskId);
    if (!current) continue;
    const items = current.items;
    const producing = items.filter((i) => usesObject(i, change.objectId)).map((i) => i.id);
    const graph = impactOf(items.map((i) => ({ ...i, after: i.after ?? [] })), producing);
    const because = new Map(graph.stale.map((s) => [s.id, s.because]));
    for (const d of derived) if (d.taskId === taskId && d.stepId && !because.has(d.stepId) && !producing.includes(d.stepId)) because.set(d.stepId, object.name);
    // The input named as the person knows it: the step whose result it is, else the object's name.
    const input = items.find((i) => producing.includes(i.id))?.title ?? object.name;
    const t = textsFor((await readTaskBrief(tx, taskId)).language);
    const marked = markStale(items, [...because].map(([id]) => ({ id, because: input })), t);
    const stale = marked.filter((i, k) => i.status === 'STALE' && items[k]!.status !== 'STALE');
    if (!stale.length) continue;
    await writeChecklist(tx, emit, { taskId, actor: change.userId ? { kind: 'USER', id: change.userId } : { kind: 'SYSTEM' }, reason: `"${input}" changed (version ${change.version})` }, () => marked);
    const cents = stale.reduce((n, i) => n + i.estimateCents, 0);
    const waits = items.filter((i) => graph.waiting.includes(i.id)).map((i) => i.title);
    const keeps = items.filter((i) => i.status === 'DONE' && !because.has(i.id) && !producing.includes(i.id)).map((i) => i.title);
    const action: ImpactAction = { type: IMPACT_ACTION, kind: 'IMPACT', itemIds: stale.map((i) => i.id), objectId: change.objectId, version: change.version, input };
    const { approval } = await requestApproval(tx, emit, {
      workspaceId: change.workspaceId,
      taskId,
      kind: 'CHECKPOINT',
      requestKey: `impact:${taskId}:${change.objectId}:${change.version}`,
      title: t.impactTitle(input, stale.length, cents),
      reasons: [
        ...stale.map((i) => ({ code: 'INPUT_CHANGED' as const, message: t.impactRemake(i.title, input, i.estimateCents) })),
        ...(waits.length ? [{ code: 'INPUT_CHANGED' as const, message: t.impactWaits(waits.join(', ')) }] : []),
        ...(keeps.length ? [{ code: 'INPUT_CHANGED' as const, message: t.impactKeeps(keeps.join(', ')) }] : []),
      ],
      quoteCents: cents,
      action,
      requestedBy: { kind: 'SYSTEM' },
    });
    out.push({ taskId, approvalId: approval.id, stale: action.itemIds });
  }
  return out;
}

/**
 * The person's answer on the impact card, in the transaction of the decision: re-make (the STALE
 * steps re-open in a new round; what they were made from is the new version) or keep (they count as
 * done again). Steps no longer STALE (an earlier card settled them) are left alone.
 */
export async function settleImpact(tx: Tx, emit: Emit, taskId: string, action: ImpactAction, remake: boolean, userId: string): Promise<{ remade: string[]; kept: string[] }> {
  const t = textsFor((await readTaskBrief(tx, taskId)).language);
  let result = { remade: [] as string[], kept: [] as string[] };
  await writeChecklist(tx, emit, { taskId, actor: { kind: 'USER', id: userId }, reason: remake ? `make again what "${action.input}" changed` : `keep what was made before "${action.input}" changed` }, (items) => {
    const ids = action.itemIds.filter((id) => items.find((i) => i.id === id)?.status === 'STALE');
    result = remake ? { remade: ids, kept: [] } : { remade: [], kept: ids };
    return settleStale(items, ids, remake, action.input, t);
  });
  return result;
}
