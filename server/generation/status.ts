// Job status only moves forward. Pure: callbacks may arrive twice, late or out of order, and polls
// may race callbacks; `advance` decides whether an update changes anything.

export type JobStatus = 'SUBMITTING' | 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED' | 'UNKNOWN';
export const TERMINAL_JOB: readonly JobStatus[] = ['SUCCEEDED', 'FAILED', 'CANCELLED'];

const rank: Record<JobStatus, number> = { SUBMITTING: 0, UNKNOWN: 0, QUEUED: 1, RUNNING: 2, SUCCEEDED: 3, FAILED: 3, CANCELLED: 3 };

export type JobState = { status: JobStatus; progress: number };
export type JobUpdate = { status: JobStatus; progress?: number };

/** The state after an update, or null when the update changes nothing (duplicate, stale, regressive). */
export function advance(current: JobState, update: JobUpdate): JobState | null {
  if (TERMINAL_JOB.includes(current.status)) return null; // a final state is final
  const status = rank[update.status] >= rank[current.status] ? update.status : current.status;
  const progress = TERMINAL_JOB.includes(status) && status === 'SUCCEEDED' ? 1 : Math.max(current.progress, Math.min(1, update.progress ?? 0));
  if (status === current.status && progress === current.progress) return null;
  return { status, progress };
}
