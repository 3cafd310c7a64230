import { z } from 'zod';
import { INPUT_POLICIES } from '../../domain/input-policy.ts';
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents, withAppendedSeq } from '../../channel/unit-of-work.ts';
import type { Deps } from '../deps.ts';
import { ensureTurn } from '../../store/turns.ts';
import { parseInput } from '../validate.ts';
import { checkIdempotencyKey, claimOf, clientKey, recordIdempotencyKey } from '../../store/idempotency.ts';

export const CreateTaskInput = z.object({
  workspaceId: z.string().uuid(),
  title: z.string().trim().min(1).max(200),
  /** What the agent plans from; a task created with a title only is asked to do what its title says. */
  goal: z.string().max(10_000).optional(),
  /** Retrying with the same key returns the task created the first time. */
  idempotencyKey: z.string().min(1).max(200).optional(),
  /** What messages that arrive while it runs do (domain/input-policy.ts). */
  inputPolicy: z.enum(INPUT_POLICIES).optional(),
});

export async function createTask(deps: Deps, viewer: Viewer, raw: z.input<typeof CreateTaskInput>) {
  const input = parseInput(CreateTaskInput, raw);
  requireWorkspace(viewer, input.workspaceId, 'write');
  const claim = claimOf('createTask', { workspaceId: input.workspaceId, userId: viewer.userId }, input);
  // Stored beside the keys of tasks the server creates itself (`message:<id>`), so namespaced.
  const storedKey = input.idempotencyKey ? clientKey(input.idempotencyKey) : null;
  if (claim && storedKey) {
    // Task first, then the key: a task that is visible was committed with its key record, so the
    // check compares against that request. (Checked the other way round, a racing request with other
    // input could pass the check before the winner commits and then return the winner's task.)
    const existing = await deps.prisma.task.findUnique({
      where: { workspaceId_idempotencyKey: { workspaceId: input.workspaceId, idempotencyKey: storedKey } },
    });
    await checkIdempotencyKey(deps.prisma, claim);
    if (existing) return existing;
  }
  try {
    const { value, events } = await transactWithEvents(deps, async (tx, emit) => {
      if (claim) await recordIdempotencyKey(tx, claim);
      const task = await tx.task.create({
        data: {
          workspaceId: input.workspaceId,
          createdById: viewer.userId, paidActions: viewer.paidActions ?? 'WORKSPACE_RULES',
          title: input.title,
          goal: input.goal?.trim() ? input.goal : input.title,
          idempotencyKey: storedKey,
          ...(input.inputPolicy ? { inputPolicy: input.inputPolicy } : {}),
        },
      });
      // The first turn and its wake-up job commit with the task (or not at all).
      await ensureTurn(tx, deps.scheduler, task);
      emit(task.id, {
        type: 'TASK_CREATED',
        actor: { kind: 'USER', id: viewer.userId },
        payload: { title: task.title, goal: task.goal, status: task.status },
      });
      return task;
    });
    return withAppendedSeq(value, events);
  } catch (e) {
    // Two concurrent requests with one idempotency key: the loser returns the winner's task.
    if (claim && storedKey && /Unique constraint|P2002|23505/.test(String((e as Error).message))) {
      await checkIdempotencyKey(deps.prisma, claim);
      const existing = await deps.prisma.task.findUnique({
        where: { workspaceId_idempotencyKey: { workspaceId: input.workspaceId, idempotencyKey: storedKey } },
      });
      if (existing) return existing;
    }
    throw e;
  }
}
