// A task's state in words: what it is doing, what it waits for, its checklist progress and its
// cost — read from persisted state only (services/messages/replies/status.ts loads the snapshot),
// so answering "where's the video at?" never wakes the task. Pure.
import { detectLanguage } from '../language.ts';
import type { TaskStateView, Texts } from './types.ts';

export type TaskSnapshot = {
  title: string;
  status: string;
  statusReason: string | null;
  /** Cards of the task waiting for a person, oldest first. */
  pendingApprovals: { title: string }[];
  /** Generation jobs not yet final. */
  liveJobs: number;
  checklist: { title: string; status: string }[] | null;
  costCents: number;
};

/** A reason shown only when it is in the reply's language (the runtime writes its reasons in English). */
function reasonIn(t: Texts, reason: string | null): string | null {
  if (!reason) return null;
  const d = detectLanguage(reason).language;
  return d === t.lang || (d === 'und' && t.lang === 'en') ? reason : null;
}

export function stateView(t: Texts, s: TaskSnapshot): TaskStateView {
  switch (s.status) {
    case 'COMPLETED':
      return { kind: 'completed' };
    case 'FAILED':
      return { kind: 'failed', reason: reasonIn(t, s.statusReason) };
    case 'CANCELLED':
      return { kind: 'cancelled' };
    case 'BUDGET_EXCEEDED':
      return { kind: 'budget' };
    case 'PAUSED':
      return { kind: 'paused', reason: reasonIn(t, s.statusReason) };
  }
  if (s.pendingApprovals.length) return { kind: 'decision', title: s.pendingApprovals[0]!.title };
  if (s.liveJobs > 0) return { kind: 'generating', running: s.liveJobs };
  if (s.status === 'WAITING') return { kind: 'waiting' };
  if (s.status === 'RUNNING') return { kind: 'working' };
  return { kind: 'queued' };
}

function progress(t: Texts, s: TaskSnapshot): string | null {
  if (!s.checklist?.length) return null;
  const done = s.checklist.filter((i) => i.status === 'DONE' || i.status === 'SKIPPED').length;
  const next = s.checklist.find((i) => i.status === 'TODO' || i.status === 'IN_PROGRESS' || i.status === 'BLOCKED');
  return t.progress(done, s.checklist.length, next && !['COMPLETED', 'CANCELLED', 'FAILED', 'BUDGET_EXCEEDED'].includes(s.status) ? next.title : null);
}

/** The answer to "how is it going?": state, progress, cost. */
export function statusText(t: Texts, s: TaskSnapshot): string {
  return [t.status(s.title, stateView(t, s)), progress(t, s), t.cost(s.costCents)].filter(Boolean).join(' ');
}

/** One line of "what are you working on?": state and progress. */
export function statusLine(t: Texts, s: TaskSnapshot): string {
  return [t.status(s.title, stateView(t, s)), progress(t, s)].filter(Boolean).join(' ');
}
