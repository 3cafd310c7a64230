import { z } from 'zod';
import { INPUT_POLICIES } from '../../domain/input-policy.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents, withAppendedSeq } from '../../channel/unit-of-work.ts';
import type { Deps } from '../deps.ts';
import { badInput } from '../../errors.ts';
import { parseInput } from '../validate.ts';
import { loadTaskFor } from './load-task.ts';

export const UpdateTaskInput = z.object({
  taskId: z.string().uuid(),
  title: z.string().trim().min(1).max(200).optional(),
  summary: z.string().max(10_000).optional(),
  inputPolicy: z.enum(INPUT_POLICIES).optional(),
});

export async function updateTask(deps: Deps, viewer: Viewer, raw: z.input<typeof UpdateTaskInput>) {
  const input = parseInput(UpdateTaskInput, raw);
  if (input.title === undefined && input.summary === undefined && input.inputPolicy === undefined) throw badInput('Nothing to update');
  await loadTaskFor(deps.prisma, viewer, input.taskId, 'write');
  const { value, events } = await transactWithEvents(deps, async (tx, emit) => {
    const task = await tx.task.update({
      where: { id: input.taskId },
      data: {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.summary !== undefined ? { summary: input.summary } : {}),
        ...(input.inputPolicy !== undefined ? { inputPolicy: input.inputPolicy } : {}),
      },
    });
    emit(task.id, {
      type: 'TASK_UPDATED',
      actor: { kind: 'USER', id: viewer.userId },
      payload: { title: input.title, summary: input.summary, inputPolicy: input.inputPolicy },
    });
    return task;
  });
  return withAppendedSeq(value, events);
}
