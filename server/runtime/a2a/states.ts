// A remote A2A task's state and status text as the rest of Atelier speaks of them: one table for
// the runtime that waits on a remote agent and the service that takes its pushed answer.
import { TaskState, type TaskStatus as A2aStatus } from '@a2a-js/sdk';

/** The protocol's state as its word ('input-required'…); undefined for an unspecified state. */
export const A2A_STATE_WORD: Partial<Record<TaskState, string>> = {
  [TaskState.TASK_STATE_SUBMITTED]: 'submitted',
  [TaskState.TASK_STATE_WORKING]: 'working',
  [TaskState.TASK_STATE_COMPLETED]: 'completed',
  [TaskState.TASK_STATE_FAILED]: 'failed',
  [TaskState.TASK_STATE_CANCELED]: 'canceled',
  [TaskState.TASK_STATE_REJECTED]: 'rejected',
  [TaskState.TASK_STATE_INPUT_REQUIRED]: 'input-required',
  [TaskState.TASK_STATE_AUTH_REQUIRED]: 'auth-required',
};

/** The text parts of a status message, one per line. */
export const a2aStatusText = (status: A2aStatus | undefined): string =>
  (status?.message?.parts ?? [])
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .filter(Boolean)
    .join('\n');
