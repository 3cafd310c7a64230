// follow_up_at: the agent asks to be woken later, by itself, to check on something ("proaktives
// Nachhaken") — never past what the workspace allows: follow-ups are opt-in per workspace, the wake
// moves past the workspace's quiet hours, and a woken turn is an ordinary turn (a paid action in it
// passes the approvals gate like any other). The follow-up, its wake job and its event commit in one
// transaction, once per call key: a replayed call returns the row the first run recorded.
import { z } from 'zod';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import { MAX_FOLLOW_UP_DAYS, MAX_FOLLOW_UP_MINUTES, resolveDueAt, wakeTimeFor } from '../../domain/follow-ups.ts';
import { findFollowUpByCallKey, insertFollowUp, readFollowUpSettings, sendFollowUpJob, type FollowUpRow } from '../../store/follow-ups.ts';
import type { Scheduler } from '../../store/scheduler.ts';
import { lockTask } from '../../store/tasks/apply-transition.ts';
import { defineTool, type ToolDef } from './types.ts';

export type FollowUpToolDeps = {
  /** Sends the wake job in the follow-up's transaction; absent (a process without queues): the tool refuses. */
  scheduler?: Scheduler;
};

/** What the model reads when the workspace has not opted in. */
export const FOLLOW_UPS_OFF =
  'Follow-ups are off in this workspace; a person has to turn them on in the settings before you can ask to be woken later. Nothing was scheduled: tell the user what you would check and when, so they can come back to you.';

const Input = z
  .object({
    at: z.iso
      .datetime({ offset: true, message: 'at must be an ISO 8601 date-time with its offset, such as "2026-06-12T09:00:00+02:00"' })
      .optional()
      .describe('When to wake you: an ISO 8601 date-time with its offset. Give this or inMinutes.'),
    inMinutes: z
      .number()
      .int('inMinutes must be a whole number of minutes')
      .min(1, 'inMinutes must be at least 1')
      .max(MAX_FOLLOW_UP_MINUTES, `inMinutes may be at most ${MAX_FOLLOW_UP_MINUTES} (${MAX_FOLLOW_UP_DAYS} days)`)
      .optional()
      .describe('When to wake you: this many minutes from now. Give this or at.'),
    reason: z
      .string()
      .trim()
      .min(1, 'reason may not be empty: say what you will check, in words the user reads')
      .max(500, 'reason may be at most 500 characters')
      .describe('What you will check then, in words the user reads ("see whether the video\'s colours are right").'),
  })
  .refine((i) => (i.at === undefined) !== (i.inMinutes === undefined), { message: 'Give exactly one of at and inMinutes.', path: ['at'] });

const Output = z.object({
  followUpId: z.string(),
  dueAt: z.string(),
  wakeAt: z.string(),
  deferred: z.boolean(),
  note: z.string(),
  replayed: z.boolean().optional(),
});

function view(f: FollowUpRow, timeZone: string | null, replayed: boolean): z.input<typeof Output> {
  const deferred = f.wakeAt.getTime() !== f.dueAt.getTime();
  const when = f.wakeAt.toISOString();
  return {
    followUpId: f.id,
    dueAt: f.dueAt.toISOString(),
    wakeAt: when,
    deferred,
    note: deferred
      ? `Scheduled. ${f.dueAt.toISOString()} falls in the workspace's quiet hours${timeZone ? ` (${timeZone})` : ''}, so you will be woken when they end, at ${when}. The user sees it on the task and may cancel it.`
      : `Scheduled: you will be woken at ${when}. The user sees it on the task and may cancel it.`,
    ...(replayed ? { replayed: true } : {}),
  };
}

export function followUpTools(deps: FollowUpToolDeps = {}): ToolDef[] {
  const followUpAt = defineTool({
    name: 'follow_up_at',
    domain: 'follow-ups',
    // Long work (video, audio, 3D) is where checking back pays off; the words of a task that asks
    // for reminders show it too (tool-phase.ts).
    domains: ['follow-ups', 'video', 'audio', '3d'],
    description:
      'Ask to be woken later to check on something by yourself: e.g. whether a long render came out right, or to remind the user about a card they have not answered. ' +
      `Give \`at\` (ISO 8601 with offset) or \`inMinutes\` (at most ${MAX_FOLLOW_UP_DAYS} days ahead), and \`reason\`: what you will check, in words the user reads. ` +
      'The task waits until then; your reminder arrives in your inbox and you go on from there. The wake moves past the workspace\'s quiet hours, the user sees it on the task and may cancel it, and it ends with the task. ' +
      'It only works when the workspace has follow-ups turned on, and it spends nothing: a paid action you take when woken still needs the usual approvals. ' +
      'Do not use it to wait for a generation you ordered (its result wakes you) or to ask the user a question (use ask_user).',
    input: Input,
    output: Output,
    safety: 'IDEMPOTENT',
    async run(input, ctx) {
      const scheduler = deps.scheduler;
      if (!scheduler) throw new Error('Follow-ups cannot be scheduled from this process. Nothing was scheduled.');
      const { value } = await transactWithEvents(ctx.uow, async (tx, emit) => {
        // Under the task's row lock: a cancel of the task (which cancels its follow-ups) and this
        // call see each other, and two runs of the same call record one row.
        await lockTask(tx, ctx.taskId);
        const recorded = await findFollowUpByCallKey(tx, ctx.taskId, ctx.idempotencyKey);
        if (recorded) return view(recorded, null, true);
        const settings = await readFollowUpSettings(tx, ctx.workspaceId);
        if (!settings.enabled) throw new Error(FOLLOW_UPS_OFF);
        // Checked against the clock of this run, not in the schema: a replay of a recorded call
        // returned above, so a time that has passed since never fails a call that succeeded.
        const due = resolveDueAt(input, new Date());
        if ('problem' in due) throw new Error(`${due.problem} Nothing was scheduled.`);
        const wakeAt = wakeTimeFor(due.dueAt, settings.quiet);
        const row = await insertFollowUp(tx, { taskId: ctx.taskId, workspaceId: ctx.workspaceId, callKey: ctx.idempotencyKey, reason: input.reason, dueAt: due.dueAt, wakeAt });
        await sendFollowUpJob(tx, scheduler, row);
        emit(ctx.taskId, {
          type: 'FOLLOW_UP_SCHEDULED',
          actor: { kind: 'AGENT' },
          payload: { followUpId: row.id, reason: row.reason, dueAt: row.dueAt.toISOString(), wakeAt: row.wakeAt.toISOString(), deferred: row.wakeAt.getTime() !== row.dueAt.getTime() },
        });
        return view(row, settings.quiet.timeZone, false);
      });
      return value;
    },
  });
  return [followUpAt];
}
