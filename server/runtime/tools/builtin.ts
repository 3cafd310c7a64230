// Core tools every task has.
import { z } from 'zod';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import { readChecklist } from '../../services/checklist/write-checklist.ts';
import { openItems } from '../checklist.ts';
import { defineTool, type ToolDef } from './types.ts';

/** Records a note on the task (visible in its timeline). Idempotent by key. */
export const addNote = defineTool({
  name: 'add_note',
  domain: 'core',
  description: 'Record a short note about progress or a decision on the task timeline.',
  input: z.object({ text: z.string().min(1).max(2000) }),
  output: z.object({ noted: z.boolean() }),
  safety: 'IDEMPOTENT',
  async run(input, ctx) {
    // Written once per idempotency key: the check and the append share a transaction that holds
    // the task row, so a replay (or a superseded worker running concurrently) cannot add a second.
    await transactWithEvents(ctx.uow, async (tx, emit) => {
      await tx.$queryRawUnsafe('SELECT 1 FROM tasks WHERE id = $1::uuid FOR UPDATE', ctx.taskId);
      const existing = await tx.taskEvent.findFirst({
        where: { taskId: ctx.taskId, type: 'NOTE', payload: { path: ['key'], equals: ctx.idempotencyKey } },
        select: { id: true },
      });
      if (!existing) emit(ctx.taskId, { type: 'NOTE', actor: { kind: 'AGENT' }, payload: { text: input.text, key: ctx.idempotencyKey } });
    });
    return { noted: true };
  },
});

/** Ends the task with a delivery summary. */
export const completeTask = defineTool({
  name: 'complete_task',
  domain: 'core',
  description: 'Finish the task: call this once the goal is achieved, with a short summary of what was delivered.',
  input: z.object({ summary: z.string().min(1).max(4000) }),
  output: z.object({ completed: z.boolean() }),
  safety: 'IDEMPOTENT',
  endsTurn: true,
  async run(_input, ctx) {
    // Done is decided from the checklist, not from the model's say-so: open steps refuse.
    const checklist = await readChecklist(ctx.uow.prisma, ctx.taskId);
    const open = checklist ? openItems(checklist.items) : [];
    if (open.length) {
      throw new Error(
        `The checklist still has open steps: ${open.map((i) => `${i.id} (${i.status})`).join(', ')}. Finish them, mark them SKIPPED with a reason, or ask the user.`,
      );
    }
    // The runtime completes the task when this call is DONE (in the same transaction as the result).
    return { completed: true };
  },
});

export const builtinTools: ToolDef[] = [addNote, completeTask];
