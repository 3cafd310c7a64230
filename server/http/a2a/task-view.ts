// An Atelier task as an A2A Task. The A2A task id IS the task's global id (as /mcp uses), and the
// context id is the global id of its line of work (the first round's task): a client that sends a
// message with only the context id reaches the line's latest round, the way a person continues
// finished work in the studio. Nothing is stored for the mapping.
//
// Status: QUEUED/RUNNING/PAUSED → working; WAITING with a card for a person → input-required, the
// card's question as the status message (a person answers it in the studio, or the client's next
// message does); COMPLETED → completed with the results as artifacts (signed file URLs);
// FAILED/BUDGET_EXCEEDED → failed; CANCELLED → canceled.
import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Artifact, type Message, type Part, type Task as A2aTask, type TaskStatus } from '@a2a-js/sdk';
import type { Task } from '../../db/generated/client.ts';
import { isTerminal } from '../../domain/task-status.ts';
import { loadObjectIdsOfTasks } from '../../services/objects/list-objects.ts';
import { globalId } from '../../graphql/ids.ts';
import { publicText } from '../../graphql/public-ids.ts';
import { cardOut, pendingCardsOf, resultsOf, statusText, type CardOut, type McpCall } from '../mcp/task-view.ts';

/** What every handler of one A2A request works with (the same as an MCP call's). */
export type A2aCall = McpCall;

/** A card waiting for a person, as far as the A2A view needs it. */
export type PendingCard = Pick<CardOut, 'id' | 'kind' | 'title' | 'options'>;

export const contextIdOf = (task: Pick<Task, 'id' | 'lineId'>): string => globalId('Task', task.lineId ?? task.id);

export function a2aState(status: Task['status'], pending: number): TaskState {
  switch (status) {
    case 'COMPLETED':
      return TaskState.TASK_STATE_COMPLETED;
    case 'FAILED':
    case 'BUDGET_EXCEEDED':
      return TaskState.TASK_STATE_FAILED;
    case 'CANCELLED':
      return TaskState.TASK_STATE_CANCELED;
    default:
      return pending > 0 && status !== 'PAUSED' ? TaskState.TASK_STATE_INPUT_REQUIRED : TaskState.TASK_STATE_WORKING;
  }
}

/** A2A's terminal and interrupted states: a stream ends at these. */
export const endsStream = (s: TaskState): boolean =>
  s === TaskState.TASK_STATE_COMPLETED ||
  s === TaskState.TASK_STATE_FAILED ||
  s === TaskState.TASK_STATE_CANCELED ||
  s === TaskState.TASK_STATE_REJECTED ||
  s === TaskState.TASK_STATE_INPUT_REQUIRED;

export const isFinalState = (s: TaskState): boolean => endsStream(s) && s !== TaskState.TASK_STATE_INPUT_REQUIRED;

export const textPart = (text: string): Part => ({ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' });

export function agentMessage(task: Pick<Task, 'id' | 'lineId'>, parts: Part[]): Message {
  return {
    messageId: randomUUID(),
    contextId: contextIdOf(task),
    taskId: globalId('Task', task.id),
    role: Role.ROLE_AGENT,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/**
 * The status message: the card's question while one waits for a person (with its options as data,
 * so a client can answer with one of them), else where the task is, in words.
 */
export function statusMessage(task: Pick<Task, 'id' | 'lineId' | 'status' | 'statusReason' | 'language'>, pending: readonly PendingCard[], text?: string): Message {
  const card = pending[0];
  if (card && a2aState(task.status, pending.length) === TaskState.TASK_STATE_INPUT_REQUIRED) {
    const data: Part = {
      content: { $case: 'data', value: { approvalId: card.id, kind: card.kind, options: card.options } },
      metadata: undefined,
      filename: '',
      mediaType: 'application/json',
    };
    return agentMessage(task, [textPart(card.title), data]);
  }
  return agentMessage(task, [textPart(text ?? statusText(task, pending))]);
}

export function taskStatus(task: Pick<Task, 'id' | 'lineId' | 'status' | 'statusReason' | 'language'>, pending: readonly PendingCard[], at: Date, text?: string): TaskStatus {
  return { state: a2aState(task.status, pending.length), message: statusMessage(task, pending, text), timestamp: at.toISOString() };
}

/** The task's results (workspace objects) as artifacts: a media file as a URL part, a document as data. */
export async function artifactsOf(call: A2aCall, objectIds: readonly string[]): Promise<Artifact[]> {
  const results = await resultsOf(call, objectIds);
  return results.map((r) => ({
    artifactId: r.objectId,
    name: r.title,
    description: `${r.kind.toLowerCase()}, version ${r.version}`,
    parts: r.file?.url
      ? [{ content: { $case: 'url', value: r.file.url }, metadata: { urlExpiresAt: r.file.urlExpiresAt }, filename: r.file.name, mediaType: r.file.mime }]
      : [{ content: { $case: 'data', value: { objectId: r.objectId, kind: r.kind, version: r.version } }, metadata: undefined, filename: '', mediaType: 'application/json' }],
    metadata: { objectId: r.objectId, version: r.version },
    extensions: [],
  }));
}

/** The whole A2A task: status (with the waiting card), artifacts, and the event it was read at. */
export async function a2aTask(call: A2aCall, task: Task): Promise<{ task: A2aTask; pending: PendingCard[] }> {
  const [cards, [objectIds]] = await Promise.all([pendingCardsOf(call, task), loadObjectIdsOfTasks(call.deps, call.viewer, [task.id])]);
  const pending = cards.map(cardOut);
  const artifacts = await artifactsOf(call, objectIds ?? []);
  return {
    pending,
    task: {
      id: globalId('Task', task.id),
      contextId: contextIdOf(task),
      status: taskStatus(task, pending, task.updatedAt),
      artifacts,
      history: [],
      // The event this view was read at: a stream that starts here delivers the events after it.
      metadata: { 'atelier/lastEventSeq': task.lastEventSeq, 'atelier/status': task.status, title: task.title, terminal: isTerminal(task.status), summary: publicText(task.summary) },
    },
  };
}
