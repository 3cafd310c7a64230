// Event sourcing: a task's state is the fold of its events. Snapshots of the fold are written every
// SNAPSHOT_EVERY_EVENTS events (or SNAPSHOT_EVERY_MS of running); loading state takes the latest
// snapshot and replays only the events after it. The journal tables (turns, steps, tool_calls) stay
// the runtime's working set; the fold is the independent record recovery checks them against.
import type { PrismaClient } from '../db/client.ts';
import type { ChecklistItem } from '../domain/checklist.ts';
import type { RoundsContext } from '../domain/rounds.ts';
import { eventsAfter, insertSnapshot, latestSnapshot, snapshotDue, type LoggedEvent } from '../store/journal/events.ts';

export const SNAPSHOT_EVERY_EVENTS = 50;
export const SNAPSHOT_EVERY_MS = 60_000;

export type TaskState = {
  status: string;
  title: string;
  goal: string;
  summary: string;
  language: string | null;
  lastSeq: number;
  turn: { number: number; generation: number } | null;
  turnsStarted: number;
  steps: number;
  toolCalls: Record<string, { tool: string; status: string }>;
  notes: number;
  signals: number;
  /** The execution checklist as of the last CHECKLIST_UPDATED event. */
  checklist?: { version: number; items: ChecklistItem[] } | null;
  /** Approvals requested for this task and not yet resolved (the context's task-state tail). */
  approvalsPending?: Record<string, { title: string; quoteCents: number | null }>;
  /** Generation jobs submitted for this task and not yet final. */
  jobsWaiting?: string[];
  /** What a next round inherited from the earlier rounds of its line (TASK_CREATED), for its requests. */
  inherited?: RoundsContext | null;
  /** Budget limits set on the task after creation (TASK_LIMITS_CHANGED). */
  limits?: { budgetCapCents?: number | null; approvedBudgetCents?: number | null };
};

export const initialTaskState = (): TaskState => ({
  status: 'QUEUED',
  title: '',
  goal: '',
  summary: '',
  language: null,
  lastSeq: 0,
  turn: null,
  turnsStarted: 0,
  steps: 0,
  toolCalls: {},
  notes: 0,
  signals: 0,
});

type Ev = LoggedEvent;
type P = Record<string, unknown>;

/** Pure. Unknown event types only advance lastSeq, so new event kinds never break old folds. */
export function applyEvent(s: TaskState, e: Ev): TaskState {
  if (e.seq !== s.lastSeq + 1) throw new Error(`event seq ${e.seq} does not follow ${s.lastSeq}`);
  const p = (e.payload ?? {}) as P;
  const n: TaskState = { ...s, lastSeq: e.seq };
  switch (e.type) {
    case 'TASK_CREATED':
      return {
        ...n,
        title: String(p.title ?? ''),
        goal: String(p.goal ?? ''),
        status: String(p.status ?? 'QUEUED'),
        language: typeof p.language === 'string' ? p.language : null,
        ...(p.inherited ? { inherited: p.inherited as RoundsContext } : {}),
      };
    case 'TASK_LANGUAGE_CHANGED':
      return { ...n, language: typeof p.language === 'string' ? p.language : null };
    case 'TASK_UPDATED':
      return {
        ...n,
        ...(typeof p.title === 'string' ? { title: p.title } : {}),
        ...(typeof p.summary === 'string' ? { summary: p.summary } : {}),
      };
    case 'CHECKLIST_UPDATED':
      return { ...n, checklist: { version: Number(p.version), items: (p.items as ChecklistItem[]) ?? [] } };
    case 'TASK_STATUS_CHANGED':
      return { ...n, status: String(p.to) };
    case 'TURN_ENDED':
      return typeof p.summary === 'string' ? { ...n, summary: p.summary } : n;
    case 'TURN_STARTED':
      return { ...n, turn: { number: Number(p.turn), generation: Number(p.generation) }, turnsStarted: s.turnsStarted + 1 };
    case 'STEP_DECIDED': {
      const calls = { ...s.toolCalls };
      for (const c of (p.toolCalls as { id: string; name: string }[] | undefined) ?? []) calls[c.id] = { tool: c.name, status: 'PENDING' };
      return { ...n, steps: s.steps + 1, toolCalls: calls };
    }
    case 'TOOL_CALL_STARTED':
    case 'TOOL_CALL_DONE':
    case 'TOOL_CALL_FAILED':
    // A refused call ends FAILED without a TOOL_CALL_FAILED of its own (journal.ts denyCall).
    case 'TOOL_CALL_DENIED':
    case 'TOOL_CALL_OUTCOME_UNKNOWN': {
      const status = { TOOL_CALL_STARTED: 'STARTED', TOOL_CALL_DONE: 'DONE', TOOL_CALL_FAILED: 'FAILED', TOOL_CALL_DENIED: 'FAILED', TOOL_CALL_OUTCOME_UNKNOWN: 'OUTCOME_UNKNOWN' }[e.type]!;
      const id = String(p.callId);
      return { ...n, toolCalls: { ...s.toolCalls, [id]: { tool: String(p.tool ?? s.toolCalls[id]?.tool ?? ''), status } } };
    }
    case 'TURN_INTERRUPTED': {
      const calls = { ...s.toolCalls };
      for (const id of (p.skipped as string[] | undefined) ?? []) calls[id] = { tool: calls[id]?.tool ?? '', status: 'SKIPPED' };
      return { ...n, toolCalls: calls };
    }
    case 'NOTE':
      return { ...n, notes: s.notes + 1 };
    case 'APPROVAL_REQUESTED': {
      const id = String(p.approvalId);
      return { ...n, approvalsPending: { ...(s.approvalsPending ?? {}), [id]: { title: String(p.title ?? ''), quoteCents: typeof p.quoteCents === 'number' ? p.quoteCents : null } } };
    }
    case 'APPROVAL_RESOLVED': {
      const { [String(p.approvalId)]: _gone, ...rest } = s.approvalsPending ?? {};
      return { ...n, approvalsPending: rest };
    }
    case 'JOB_SUBMITTED':
    case 'JOB_SUBMISSION_UNKNOWN': {
      const id = String(p.jobId);
      const jobs = s.jobsWaiting ?? [];
      return { ...n, jobsWaiting: jobs.includes(id) ? jobs : [...jobs, id] };
    }
    case 'JOB_SUCCEEDED':
    case 'JOB_FAILED':
    case 'JOB_CANCELLED':
      return { ...n, jobsWaiting: (s.jobsWaiting ?? []).filter((j) => j !== String(p.jobId)) };
    case 'TASK_LIMITS_CHANGED': {
      const limits = { ...(s.limits ?? {}) };
      if (p.budgetCapCents !== undefined) limits.budgetCapCents = p.budgetCapCents as number | null;
      if (p.approvedBudgetCents !== undefined) limits.approvedBudgetCents = p.approvedBudgetCents as number | null;
      return { ...n, limits };
    }
    case 'SIGNAL_RECEIVED':
      return { ...n, signals: s.signals + 1 };
    default:
      return n;
  }
}

export function foldEvents(s: TaskState, events: Ev[]): TaskState {
  return events.reduce(applyEvent, s);
}

/** Latest snapshot + the events after it. */
export async function loadTaskState(
  prisma: PrismaClient,
  taskId: string,
): Promise<{ state: TaskState; snapshotSeq: number | null; replayed: number }> {
  const snap = await latestSnapshot(prisma, taskId);
  const base = snap ? (snap.state as TaskState) : initialTaskState();
  const rest = await eventsAfter(prisma, taskId, base.lastSeq);
  return { state: foldEvents(base, rest), snapshotSeq: snap?.seq ?? null, replayed: rest.length };
}

/** Writes a snapshot when enough events or time have passed since the last one. */
export async function maybeSnapshot(prisma: PrismaClient, taskId: string, now = Date.now()): Promise<boolean> {
  const { lastEventSeq, snapshot: snap } = await snapshotDue(prisma, taskId);
  if (lastEventSeq === null) return false;
  const since = lastEventSeq - (snap?.seq ?? 0);
  const old = snap ? now - snap.createdAt.getTime() >= SNAPSHOT_EVERY_MS : false;
  if (since < SNAPSHOT_EVERY_EVENTS && !(old && since > 0)) return false;
  const { state } = await loadTaskState(prisma, taskId);
  await insertSnapshot(prisma, taskId, state.lastSeq, state);
  return true;
}
