// A person edits a task's checklist (a change of direction: steps re-opened, added, dropped,
// renamed). Optimistic concurrency on the version: a stale `baseVersion` is a CONFLICT with the
// current version and nothing is written. A person with the approve scope who edits the plan also
// approves it (they are the one who would have been asked), including a larger estimate.
import { z } from 'zod';
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import type { Deps } from '../deps.ts';
import { isTerminal } from '../../domain/task-status.ts';
import { conflict } from '../../errors.ts';
import { estimateCents, ITEM_STATUSES, mergePlan, type ChecklistItem } from '../../domain/checklist.ts';
import { textsFor } from '../../domain/replies/texts.ts';
import { loadTaskFor } from '../tasks/load-task.ts';
import { parseInput } from '../validate.ts';
import { writeChecklist } from '../../store/checklist/write-checklist.ts';

export const EditChecklistInput = z.object({
  taskId: z.string().uuid(),
  baseVersion: z.number().int().min(0),
  items: z
    .array(
      z.object({
        id: z.string().trim().min(1).max(40).optional(),
        title: z.string().trim().min(1).max(300),
        kind: z.string().trim().min(1).max(40).optional(),
        count: z.number().int().min(1).max(12).optional(),
        status: z
          .enum(ITEM_STATUSES)
          .refine((v) => v !== 'STALE', { message: 'STALE comes from a change, not by hand: set TODO to make the step again, or DONE to keep its results' })
          .optional(),
        after: z.array(z.string().trim().min(1).max(40)).max(30).optional(),
      }),
    )
    .max(30),
  reason: z.string().trim().max(500).optional(),
});

export async function editChecklist(deps: Deps, viewer: Viewer, raw: z.input<typeof EditChecklistInput>) {
  const input = parseInput(EditChecklistInput, raw);
  const task = await loadTaskFor(deps.prisma, viewer, input.taskId, 'write');
  if (isTerminal(task.status)) throw conflict(`Task already ended as ${task.status}`, { status: task.status });
  const caps = deps.runtime.capabilities;
  const missing = caps ? caps.missing(input.items.map((i) => i.kind ?? 'OTHER')) : [];
  if (missing.length) throw conflict(`The platform cannot do ${missing.join(', ')}`, { missing });
  const approves = viewer.scopes.has('APPROVE') && viewer.principal === 'HUMAN';
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    const current = await tx.task.findUniqueOrThrow({ where: { id: input.taskId }, select: { checklistVersion: true, approvedBudgetCents: true } });
    if (current.checklistVersion !== input.baseVersion) {
      throw conflict(`The checklist changed meanwhile (now version ${current.checklistVersion})`, { currentVersion: current.checklistVersion });
    }
    const reason = input.reason ?? 'edited by the user';
    const { checklist, written } = await writeChecklist(tx, emit, { taskId: input.taskId, actor: { kind: 'USER', id: viewer.userId }, reason }, (items) => {
      const merged = mergePlan(items, input.items, (k) => caps?.price(k) ?? 0, reason, textsFor(task.language));
      // Explicit statuses from the person win (re-opening a step is how a change of direction starts).
      return merged.map((m): ChecklistItem => {
        const asked = input.items.find((i) => (i.id ?? '') === m.id || i.title.toLowerCase() === m.title.toLowerCase());
        return asked?.status ? { ...m, status: asked.status } : m;
      });
    });
    if (written && approves) {
      const est = estimateCents(checklist.items);
      await tx.task.update({
        where: { id: input.taskId },
        data: { planApprovedVersion: checklist.version, approvedBudgetCents: Math.max(est, current.approvedBudgetCents ?? 0) },
      });
    }
    return checklist;
  });
  return value;
}
