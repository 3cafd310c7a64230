// The schedule runner's tick: every schedule whose next slot has come runs once. Any number of
// workers may tick at once (pg-boss's minute cron reaches one of them; each also ticks when it
// starts, so a server coming back runs what came due while it was down).
//
// One transaction per schedule claims it (FOR UPDATE SKIP LOCKED: a schedule another runner holds
// is left to it), records the run of its slot — unique per (schedule, slot), so a slot never runs
// twice whatever two runners or a retried tick do — makes the run's effect and moves nextRunAt past
// now. Slots that came due while nobody ticked collapse into ONE run of the latest of them, which
// counts the others (missedSlots; domain/schedule-slots.ts).
//
// A TASK run's effect is made in that same transaction: an ordinary task of the schedule's creator
// (its goal the text, its cap the schedule's, its approvals its own), with its first turn and wake-up.
// A MESSAGE run's message is sent after the run commits, through sendMessage like any message of the
// creator's (routing may ask a model, which no transaction holding a schedule's lock should wait
// on), with an idempotency key made of the schedule and the slot: the run row is the promise to send
// it, and a later tick sends what a crash between the two left unsent — the key makes that retry
// return the first message instead of sending a second.
import type { Role, Viewer } from '../../auth/viewer.ts';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import { detectLanguage } from '../../domain/language.ts';
import { dueRun } from '../../domain/schedule-slots.ts';
import {
  advanceSchedule,
  claimDueSchedule,
  insertRun,
  pauseByRunner,
  pendingMessageRuns,
  recordRunEffect,
  roleIn,
  type ScheduleRow,
} from '../../store/schedules.ts';
import { ensureTurn } from '../../store/turns.ts';
import type { Deps } from '../deps.ts';
import { sendMessage } from '../messages/send-message.ts';

export type TickOptions = {
  /** Schedules one tick runs at most (the next tick goes on). */
  maxRuns?: number;
  /** A MESSAGE run younger than this is still being sent by the runner that made it. */
  resendAfterMs?: number;
  /** A MESSAGE run whose message could not be sent for this long is given up. */
  giveUpAfterMs?: number;
};

export type ScheduleRunOutcome = {
  scheduleId: string;
  runId: string;
  kind: 'MESSAGE' | 'TASK';
  slotAt: Date;
  missedSlots: number;
  taskId: string | null;
  messageId: string | null;
};

export type TickResult = {
  runs: ScheduleRunOutcome[];
  /** Schedules paused because their creator can no longer write in the workspace. */
  paused: string[];
  /** Schedules whose run failed this tick (rolled back; the next tick tries again). */
  failed: string[];
  /** MESSAGE runs left unsent by an earlier tick, sent now. */
  resent: number;
};

/** The key of a run's message: one per schedule and slot, whoever sends it and however often. */
export const messageKeyOf = (scheduleId: string, slotAt: Date): string => `schedule:${scheduleId}:${slotAt.toISOString()}`;

/**
 * The creator, as the runs act: their role in the workspace, reading and writing, an integration's
 * principal (a schedule is not a person present: cards still wait for one) under the workspace's
 * rules for paid actions.
 */
function creatorViewer(s: ScheduleRow, role: Role): Viewer {
  return {
    userId: s.createdById,
    credentialId: `schedule:${s.id}`,
    scopes: new Set(['READ', 'WRITE']),
    memberships: new Map([[s.workspaceId, role]]),
    principal: 'SERVICE',
    paidActions: 'WORKSPACE_RULES',
  };
}

type Claimed =
  | { kind: 'ran'; schedule: ScheduleRow; role: Role; outcome: ScheduleRunOutcome }
  | { kind: 'paused'; schedule: ScheduleRow }
  | { kind: 'slot-taken'; schedule: ScheduleRow };

export async function runDueSchedules(deps: Deps, now: Date = new Date(), opts: TickOptions = {}): Promise<TickResult> {
  const result: TickResult = { runs: [], paused: [], failed: [], resent: 0 };
  const tried: string[] = [];
  const sent = new Set<string>();
  for (let i = 0; i < (opts.maxRuns ?? 500); i++) {
    // The schedule the transaction claimed, known to the catch below even when the body threw.
    const current: { id: string | null } = { id: null };
    let claimed: Claimed | null;
    try {
      ({ value: claimed } = await transactWithEvents(deps, async (tx, emit): Promise<Claimed | null> => {
        const s = await claimDueSchedule(tx, now, tried);
        if (!s) return null;
        current.id = s.id;
        const due = dueRun(s, now);
        if (!due) return { kind: 'slot-taken', schedule: s };
        // The runs speak for their creator: one who can no longer write there stops them.
        const role = await roleIn(tx, s.workspaceId, s.createdById);
        if (role !== 'OWNER' && role !== 'MEMBER') {
          await pauseByRunner(tx, s.id);
          return { kind: 'paused', schedule: s };
        }
        const run = await insertRun(tx, { scheduleId: s.id, slotAt: due.slotAt, missedSlots: due.missedSlots });
        if (!run) {
          await advanceSchedule(tx, s.id, { nextRunAt: due.nextRunAt });
          return { kind: 'slot-taken', schedule: s };
        }
        let taskId: string | null = null;
        if (s.kind === 'TASK') {
          const language = detectLanguage(s.text).language;
          const task = await tx.task.create({
            data: {
              workspaceId: s.workspaceId,
              createdById: s.createdById,
              paidActions: 'WORKSPACE_RULES',
              title: s.title,
              goal: s.text,
              language: language === 'und' ? null : language,
              budgetCapCents: s.budgetCapCents,
              scheduleRunId: run.id,
            },
          });
          // The first turn and its wake-up commit with the task and the run (or none of them does).
          await ensureTurn(tx, deps.scheduler, task);
          emit(task.id, {
            type: 'TASK_CREATED',
            actor: { kind: 'USER', id: s.createdById },
            payload: { title: task.title, goal: task.goal, status: task.status, kind: task.kind, language: task.language, scheduleId: s.id },
          });
          await recordRunEffect(tx, run.id, { taskId: task.id });
          taskId = task.id;
        }
        await advanceSchedule(tx, s.id, { nextRunAt: due.nextRunAt, lastRunAt: now });
        return {
          kind: 'ran',
          schedule: s,
          role,
          outcome: { scheduleId: s.id, runId: run.id, kind: s.kind, slotAt: due.slotAt, missedSlots: due.missedSlots, taskId, messageId: null },
        };
      }));
    } catch (e) {
      // The claim's transaction rolled back: the schedule stays due, and the next tick tries again.
      if (!current.id) throw e;
      tried.push(current.id);
      result.failed.push(current.id);
      deps.log.warn('a schedule could not run; the next tick tries again', { scheduleId: current.id, error: (e as Error).message });
      continue;
    }
    if (!claimed) break;
    tried.push(claimed.schedule.id);
    if (claimed.kind === 'paused') {
      result.paused.push(claimed.schedule.id);
      deps.log.warn('schedule paused: its creator can no longer write in the workspace', { scheduleId: claimed.schedule.id, workspaceId: claimed.schedule.workspaceId });
      continue;
    }
    if (claimed.kind === 'slot-taken') continue;
    const { outcome } = claimed;
    if (outcome.kind === 'MESSAGE') {
      sent.add(outcome.runId);
      const effect = await sendRunMessage(deps, claimed.schedule, claimed.role, outcome.runId, outcome.slotAt);
      outcome.messageId = effect?.messageId ?? null;
      outcome.taskId = effect?.taskId ?? null;
    }
    result.runs.push(outcome);
  }
  // Messages of runs an earlier tick committed but did not get to send.
  for (const p of await pendingMessageRuns(deps.prisma, { graceMs: opts.resendAfterMs ?? 30_000, giveUpMs: opts.giveUpAfterMs ?? 86_400_000 })) {
    if (sent.has(p.id)) continue;
    const s = await deps.prisma.schedule.findUnique({ where: { id: p.scheduleId } });
    const role = s ? await roleIn(deps.prisma, s.workspaceId, s.createdById) : null;
    if (!s || (role !== 'OWNER' && role !== 'MEMBER')) continue;
    if (await sendRunMessage(deps, s, role, p.id, p.slotAt)) result.resent++;
  }
  return result;
}

/** Sends a MESSAGE run's text as its creator and records the message on the run; null when sending failed (retried later). */
async function sendRunMessage(deps: Deps, s: ScheduleRow, role: Role, runId: string, slotAt: Date): Promise<{ messageId: string; taskId: string | null } | null> {
  try {
    const sent = await sendMessage(deps, creatorViewer(s, role), { workspaceId: s.workspaceId, text: s.text, idempotencyKey: messageKeyOf(s.id, slotAt) });
    await recordRunEffect(deps.prisma, runId, { messageId: sent.messageId, taskId: sent.taskId });
    return { messageId: sent.messageId, taskId: sent.taskId };
  } catch (e) {
    deps.log.warn("a schedule's message could not be sent; a later tick sends it", { scheduleId: s.id, runId, error: (e as Error).message });
    return null;
  }
}
