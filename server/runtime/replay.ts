// Deterministic replay of a recorded task: for every recorded step, rebuild the model request from
// the journal as it stood before that step (with the recorded model decisions and recorded tool
// results standing in for the model and the tools) and compare it with the recorded request. The
// first difference is reported: it shows where today's code (context assembly, tool set) would
// have asked the model something else. Nothing is executed and nothing is written.
import type { PrismaClient } from '../db/client.ts';
import { canonicalJson } from '../channel/payload.ts';
import { digestRequest, dynamicsOf, loadCompactions, loadTaskInbox, loadTaskNotices, loadTaskSteps, renderContext, reviseOrdinalsOf } from './context.ts';
import { eventsAfter } from '../store/journal/events.ts';
import type { Decision } from './journal.ts';
import { WITHHELD_TEXT } from '../domain/sealing.ts';
import { applyEvent, initialTaskState, type TaskState } from './task-state.ts';

export type Divergence = {
  turn: number;
  step: number;
  kind: 'request' | 'decision' | 'journal';
  detail: string;
  expected?: unknown;
  actual?: unknown;
};

export type ReplayReport = {
  taskId: string;
  steps: number;
  toolCalls: number;
  divergence: Divergence | null;
  /**
   * Steps that cannot be compared because what they were asked or decided is withheld: it relied on
   * a memory that was forgotten (its data key destroyed, or its request redacted). Not a divergence.
   */
  withheld: { turn: number; step: number }[];
};

/** Whether a recorded step's request or decision reads as withheld (store/sealing, forgetting). */
function withheldStep(s: { request: unknown; decision: unknown }): boolean {
  return s.request === null || canonicalJson(s.request).includes(WITHHELD_TEXT) || canonicalJson(s.decision).includes(WITHHELD_TEXT);
}

/**
 * Everything a replay reads of a task: its steps with their calls, inbox, notices, events and
 * compactions, as recorded. Saved as a replay fixture (replay-fixtures.ts), it replays without the
 * database it came from.
 */
export type ReplayInput = {
  taskId: string;
  steps: Awaited<ReturnType<typeof loadTaskSteps>>;
  inbox: Awaited<ReturnType<typeof loadTaskInbox>>;
  notices: Awaited<ReturnType<typeof loadTaskNotices>>;
  events: Awaited<ReturnType<typeof eventsAfter>>;
  compactions: Awaited<ReturnType<typeof loadCompactions>>;
  /** A fork's log starts after the seq it shares with the task it was forked from (domain/forks.ts). */
  startSeq?: number;
};

export async function loadReplayInput(prisma: PrismaClient, taskId: string): Promise<ReplayInput> {
  const [steps, inbox, notices, events, compactions, task] = await Promise.all([
    loadTaskSteps(prisma, taskId),
    loadTaskInbox(prisma, taskId),
    loadTaskNotices(prisma, taskId),
    // Payloads stored by reference (a next round's inherited rounds, large outputs) are loaded in their place.
    eventsAfter(prisma, taskId, 0),
    loadCompactions(prisma, taskId),
    prisma.task.findUnique({ where: { id: taskId }, select: { forkedAtSeq: true } }),
  ]);
  return { taskId, steps, inbox, notices, events, compactions, ...(task?.forkedAtSeq ? { startSeq: task.forkedAtSeq } : {}) };
}

export async function replayTask(prisma: PrismaClient, taskId: string): Promise<ReplayReport> {
  return replayRecorded(await loadReplayInput(prisma, taskId));
}

/** Replays a recorded task (pure: reads nothing, writes nothing). */
export function replayRecorded(input: ReplayInput): ReplayReport {
  const { taskId, steps, inbox, notices, events, compactions: records } = input;
  const report: ReplayReport = { taskId, steps: steps.length, toolCalls: steps.reduce((n, s) => n + s.toolCalls.length, 0), divergence: null, withheld: [] };

  // The task brief as it was when each step was decided: fold the events up to that step's STEP_DECIDED.
  const briefAt: TaskState[] = [];
  // The tail of a request that recorded its fold seq is rebuilt from the fold at that seq.
  const wantedSeqs = new Set(steps.map((s) => (s.request as { stateSeq?: number } | null)?.stateSeq).filter((x): x is number => typeof x === 'number'));
  const foldAt = new Map<number, TaskState>();
  // A fork's own events start after the seq it shares: its fold starts there (as its snapshot does).
  let state: TaskState = { ...initialTaskState(), lastSeq: input.startSeq ?? 0 };
  if (wantedSeqs.has(state.lastSeq)) foldAt.set(state.lastSeq, state);
  for (const e of events) {
    if (e.type === 'STEP_DECIDED') briefAt.push(state);
    state = applyEvent(state, e);
    if (wantedSeqs.has(e.seq)) foldAt.set(e.seq, state);
  }

  for (let k = 0; k < steps.length; k++) {
    const s = steps[k]!;
    const where = { turn: s.turnNumber, step: s.index };
    if (withheldStep(s)) {
      report.withheld.push(where);
      continue;
    }
    const history = steps.slice(0, k);
    const seenSteps = new Set(history.map((h) => `${h.turnId}:${h.index}`));
    const consumed = inbox.filter((i) => i.consumedTurnId && seenSteps.has(`${i.consumedTurnId}:${i.consumedStep}`));
    const fresh = inbox.filter((i) => i.consumedTurnId === s.turnId && i.consumedStep === s.index);
    const brief = briefAt[k] ?? state;
    const recorded = (s.request ?? {}) as { tools?: string[]; messages?: unknown[]; stateSeq?: number };
    // The capability registry is the environment's (the provider's offer), not code: take it from
    // the recorded request. The checklist is rebuilt from the events.
    const recordedKnowledge = (recorded.messages ?? [])
      .map((m) => (m as { type?: string; content?: unknown }))
      .find((m) => m.type === 'system' && typeof m.content === 'string' && m.content.startsWith('[capabilities]'));
    const capabilities = recordedKnowledge ? String(recordedKnowledge.content).split('\n\n[guide: ')[0]! : null;
    // So is the long-term memory section: what memory held then (retrieval is not replayed).
    const recordedMemory = (recorded.messages ?? [])
      .map((m) => (m as { type?: string; content?: unknown }))
      .find((m) => m.type === 'system' && typeof m.content === 'string' && m.content.startsWith('<long-term-memory>'));
    const memorySection = recordedMemory ? String(recordedMemory.content) : null;
    const noticesBefore = notices.filter((n) => n.consumedTurnId && seenSteps.has(`${n.consumedTurnId}:${n.consumedStep}`));
    const noticesNow = notices.filter((n) => n.consumedTurnId === s.turnId && n.consumedStep === s.index);
    const tail = recorded.stateSeq !== undefined ? foldAt.get(recorded.stateSeq) : undefined;
    const messages = renderContext(
      {
        task: { title: brief.title, goal: brief.goal, language: brief.language, inherited: brief.inherited ?? null },
        steps: history,
        inbox,
        consumed,
        fresh,
        notices: { consumed: noticesBefore, fresh: noticesNow },
        dynamics: tail ? dynamicsOf(tail) : { checklist: brief.checklist ?? null },
        knowledge: { capabilities, memorySection },
        stateSeq: recorded.stateSeq ?? 0,
        reviseOrdinals: reviseOrdinalsOf(history, inbox),
      },
      records,
    );
    const { digest, request } = digestRequest(messages, recorded.tools ?? [], recorded.stateSeq !== undefined ? { stateSeq: recorded.stateSeq } : {});
    if (digest !== s.requestDigest) {
      const now = (request as { messages: unknown[] }).messages;
      const then = recorded.messages ?? [];
      let i = 0;
      while (i < Math.max(now.length, then.length) && canonicalJson(now[i]) === canonicalJson(then[i])) i++;
      report.divergence = {
        ...where,
        kind: 'request',
        detail: `the model request differs at message ${i} of ${then.length}`,
        expected: then[i] ?? null,
        actual: now[i] ?? null,
      };
      return report;
    }
    const d = s.decision as Decision;
    const journalCalls = s.toolCalls.map((c) => [c.modelCallId, c.name]);
    const decidedCalls = d.toolCalls.map((c) => [c.id, c.name]);
    if (canonicalJson(journalCalls) !== canonicalJson(decidedCalls)) {
      report.divergence = { ...where, kind: 'decision', detail: 'the journaled tool calls differ from the recorded decision', expected: decidedCalls, actual: journalCalls };
      return report;
    }
    const unfinished = s.toolCalls.filter((c) => c.status === 'PENDING' || c.status === 'STARTED');
    if (unfinished.length && k < steps.length - 1) {
      report.divergence = { ...where, kind: 'journal', detail: `calls ${unfinished.map((c) => c.id).join(', ')} never finished but later steps exist` };
      return report;
    }
  }
  return report;
}
