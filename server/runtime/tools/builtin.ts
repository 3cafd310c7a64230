// Core tools every task has.
import { z } from 'zod';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import { readChecklist } from '../../store/checklist/write-checklist.ts';
import { hasNoteWithKey, readPayload } from '../../store/journal/events.ts';
import { findCallOfTask } from '../../store/journal/steps.ts';
import { lockTask } from '../../store/tasks/apply-transition.ts';
import { openItems } from '../../domain/checklist.ts';
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
      await lockTask(tx, ctx.taskId);
      if (!(await hasNoteWithKey(tx, ctx.taskId, ctx.idempotencyKey))) emit(ctx.taskId, { type: 'NOTE', actor: { kind: 'AGENT' }, payload: { text: input.text, key: ctx.idempotencyKey } });
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

/**
 * Reads back, paged, the original output of an earlier call of this task: compaction
 * shows large outputs as a preview plus a reference, and this is the way back to the full text.
 * Scoped to the calling task's own journal.
 */
export const readResult = defineTool({
  name: 'read_result',
  domain: 'core',
  description:
    'Read the full output of an earlier tool call of this task that the context shows elided (elided: true, callId). Paged: offset and limit in characters.',
  input: z.object({ callId: z.string().min(1).max(200), offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(6000).default(4000) }),
  output: z.object({
    callId: z.string(),
    tool: z.string(),
    status: z.string(),
    totalChars: z.number(),
    offset: z.number(),
    text: z.string(),
    nextOffset: z.number().nullable(),
  }),
  safety: 'READ_ONLY',
  async run(input, ctx) {
    const call = await findCallOfTask(ctx.uow.prisma, ctx.taskId, input.callId);
    if (!call) throw new Error(`No call "${input.callId}" in this task`);
    let value: unknown = call.status === 'FAILED' ? call.error : call.result;
    // Outputs above the registry's cap were stored once by content hash: read the stored body.
    const ref = (value as { truncated?: boolean; ref?: { hash?: string } } | null)?.ref?.hash;
    if ((value as { truncated?: boolean } | null)?.truncated && ref) {
      const body = await readPayload(ctx.uow.prisma, ref);
      if (body) value = body.body;
    }
    const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
    const slice = text.slice(input.offset, input.offset + input.limit);
    const next = input.offset + slice.length;
    return { callId: call.id, tool: call.name, status: call.status, totalChars: text.length, offset: input.offset, text: slice, nextOffset: next < text.length ? next : null };
  },
});

export const builtinTools: ToolDef[] = [addNote, completeTask, readResult];
