// The A2A request handler: the SDK's JSON-RPC transport (JsonRpcTransportHandler) calls these
// methods; each is an adapter over the services with the viewer of the request, like an MCP tool.
// A2A tasks are Atelier's durable tasks, so there is no SDK task store, executor or event bus: a
// message starts or continues a task (createTask / sendMessage), streams and resubscriptions follow
// the task's event log from a cursor (follow.ts), cancel is the CANCEL signal, and any API process
// answers for any task.
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task as A2aTask,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import {
  ExtendedAgentCardNotConfiguredError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { Task } from '../../db/generated/client.ts';
import { isTerminal } from '../../domain/task-status.ts';
import { isAppError } from '../../errors.ts';
import { defaultWorkspaceId } from '../../auth/access.ts';
import { latestRoundOf } from '../../services/a2a/line.ts';
import { getPushConfig, listPushConfigs, removePushConfig, setPushConfig } from '../../services/a2a/push-configs.ts';
import { sendMessage } from '../../services/messages/send-message.ts';
import { createTask } from '../../services/tasks/create-task.ts';
import { getTask } from '../../services/tasks/get-task.ts';
import { listTasks } from '../../services/tasks/list-tasks.ts';
import { signalTask } from '../../services/tasks/signal-task.ts';
import { encodeKeyset } from '../../services/keyset.ts';
import { atelierTaskId } from '../mcp/tasks.ts';
import { followTask, taskAt } from './follow.ts';
import type { PushDelivery } from './push.ts';
import { a2aTask, endsStream, type A2aCall, type PendingCard } from './task-view.ts';

/** Where the transport puts the request's call (viewer, deps, public URL) and its abort signal. */
export const CALL_KEY = 'atelier/call';
export const SIGNAL_KEY = 'atelier/signal';
/** The seq a resubscribing client got last (its Last-Event-ID header), when it sent one. */
export const RESUME_KEY = 'atelier/resumeAfter';

const callOf = (ctx: ServerCallContext): A2aCall => {
  const call = ctx.state.get(CALL_KEY) as A2aCall | undefined;
  if (!call) throw new Error('an A2A request without its call');
  return call;
};
const signalOf = (ctx: ServerCallContext): AbortSignal => (ctx.state.get(SIGNAL_KEY) as AbortSignal | undefined) ?? new AbortController().signal;

/** An Atelier error as the A2A error a client acts on; the stable code stays in the message and metadata. */
export function toA2aError(e: unknown): unknown {
  if (!isAppError(e)) return e;
  const options = { message: `${e.message} (${e.code})`, metadata: { code: e.code } };
  switch (e.code) {
    case 'NOT_FOUND':
      return new TaskNotFoundError(options);
    case 'BAD_USER_INPUT':
    case 'IDEMPOTENCY_KEY_REUSED':
      return new RequestMalformedError(options);
    default:
      // FORBIDDEN (a read-only token writing), CONFLICT (an ended task): not possible as asked.
      return new UnsupportedOperationError(options);
  }
}

const guard =
  <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    try {
      return await fn(...args);
    } catch (e) {
      throw toA2aError(e);
    }
  };

/** The raw task id an A2A task id names, or TaskNotFound (another workspace's ids are not found either). */
function taskIdOf(id: string): string {
  if (!id?.trim()) throw new RequestMalformedError('The task id is missing');
  const raw = atelierTaskId(id);
  if (!raw) throw new TaskNotFoundError(`Task not found: ${id}`);
  return raw;
}

async function loadTask(call: A2aCall, id: string): Promise<Task> {
  return getTask(call.deps, call.viewer, taskIdOf(id));
}

function textOf(message: Message | undefined): string {
  if (!message) throw new RequestMalformedError('params.message is required');
  if (!message.messageId?.trim()) throw new RequestMalformedError('message.messageId is required');
  const text = message.parts
    .map((p) => (p.content?.$case === 'text' ? p.content.value : p.content?.$case === 'data' ? JSON.stringify(p.content.value) : ''))
    .filter((t) => t.trim())
    .join('\n')
    .trim();
  if (!text) throw new RequestMalformedError('The message needs a text (or data) part: Atelier works from words');
  return text;
}

/**
 * Starts a task (no task or context id) or continues one: a message to a task goes to it as a
 * person's message in the studio would (it answers a card the task waits on); a message to a
 * context goes to the line's latest round. A task that has ended takes no message by its id (A2A:
 * a terminal task is not restarted) — the client continues the work through its context id.
 * The message id makes a retry safe: the same id returns the same task.
 */
async function deliver(call: A2aCall, params: SendMessageRequest): Promise<Task> {
  const message = params.message;
  const text = textOf(message);
  const key = `a2a:${message!.messageId}`.slice(0, 200);
  if (message!.taskId) {
    const task = await loadTask(call, message!.taskId);
    if (isTerminal(task.status)) {
      throw new UnsupportedOperationError(`The task has ended (${task.status.toLowerCase()}); send the message with its contextId and no taskId to continue the work in a next round`);
    }
    const r = await sendMessage(call.deps, call.viewer, { workspaceId: task.workspaceId, text, taskId: task.id, idempotencyKey: key });
    return getTask(call.deps, call.viewer, r.taskId ?? task.id);
  }
  if (message!.contextId) {
    const line = atelierTaskId(message!.contextId);
    if (!line) throw new TaskNotFoundError(`No context ${message!.contextId}`);
    const latest = await latestRoundOf(call.deps, call.viewer, line);
    const r = await sendMessage(call.deps, call.viewer, { workspaceId: latest.workspaceId, text, taskId: latest.id, idempotencyKey: key });
    return getTask(call.deps, call.viewer, r.taskId ?? latest.id);
  }
  const firstLine = text.split('\n').find((l) => l.trim())!.trim();
  const title = firstLine.length > 120 ? `${firstLine.slice(0, 117)}…` : firstLine;
  return createTask(call.deps, call.viewer, { workspaceId: defaultWorkspaceId(call.viewer), title, goal: text, idempotencyKey: key });
}

export function createA2aRequestHandler(opts: { card(): Promise<AgentCard>; push: PushDelivery }): A2ARequestHandler {
  const pushFromMessage = async (call: A2aCall, task: Task, params: SendMessageRequest) => {
    const c = params.configuration?.taskPushNotificationConfig;
    if (!c?.url) return;
    const { config, task: row } = await setPushConfig(call.deps, call.viewer, { taskId: task.id, configId: c.id || 'default', url: c.url, token: c.token });
    opts.push.follow(call, row, config.lastSeq);
  };

  const handler: A2ARequestHandler = {
    getAgentCard: () => opts.card(),
    getAuthenticatedExtendedAgentCard: async () => {
      throw new ExtendedAgentCardNotConfiguredError('Atelier has no extended agent card: the public card is the whole card');
    },

    sendMessage: guard(async (params: SendMessageRequest, ctx: ServerCallContext): Promise<Message | A2aTask> => {
      const call = callOf(ctx);
      const task = await deliver(call, params);
      await pushFromMessage(call, task, params);
      const first = await a2aTask(call, task);
      if (params.configuration?.returnImmediately) return first.task;
      // Blocking: wait until the task ends or needs input (A2A's interrupted states), then answer
      // with the task as it is then. A client that goes away ends the wait, not the task.
      let ended = false;
      for await (const u of followTask(call, task, first.pending, signalOf(ctx), { stopAtInterrupt: true })) {
        if (endsStream(u.state)) ended = true;
      }
      if (!ended && signalOf(ctx).aborted) return first.task;
      return (await a2aTask(call, await getTask(call.deps, call.viewer, task.id))).task;
    }),

    sendMessageStream(params: SendMessageRequest, ctx: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
      return (async function* () {
        const call = callOf(ctx);
        let task: Task;
        let snapshot;
        try {
          task = await deliver(call, params);
          await pushFromMessage(call, task, params);
          snapshot = await a2aTask(call, task);
        } catch (e) {
          throw toA2aError(e);
        }
        yield { payload: { $case: 'task', value: snapshot.task } };
        for await (const u of followTask(call, task, snapshot.pending, signalOf(ctx), { stopAtInterrupt: true })) yield u.response;
      })();
    },

    getTask: guard(async (params: GetTaskRequest, ctx: ServerCallContext) => {
      const call = callOf(ctx);
      return (await a2aTask(call, await loadTask(call, params.id))).task;
    }),

    cancelTask: guard(async (params: CancelTaskRequest, ctx: ServerCallContext) => {
      const call = callOf(ctx);
      const task = await loadTask(call, params.id);
      if (isTerminal(task.status) && task.status !== 'CANCELLED') {
        throw new TaskNotCancelableError(`The task has already ended (${task.status.toLowerCase()})`);
      }
      await signalTask(call.deps, call.viewer, { taskId: task.id, signal: 'CANCEL', reason: 'Cancelled through A2A (CancelTask)' });
      return (await a2aTask(call, await getTask(call.deps, call.viewer, task.id))).task;
    }),

    resubscribe(params: SubscribeToTaskRequest, ctx: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
      // The task as it is now (with the event it was read at), then every update after that event
      // until it ends: a client that lost its stream resubscribes and misses and doubles nothing.
      // Unlike a message stream it goes on through input-required: the card is answered (by a
      // person in the studio, or a message) and the work continues on the same stream.
      return (async function* () {
        const call = callOf(ctx);
        let from: { task: Task; pending: PendingCard[] };
        let snapshot;
        try {
          const task = await loadTask(call, params.id);
          snapshot = await a2aTask(call, task);
          // With Last-Event-ID (the `atelier/seq` of the last update it got), the client gets the
          // updates after that one — those it missed while away — each with the state it had.
          const resume = ctx.state.get(RESUME_KEY);
          if (resume === undefined) from = { task, pending: snapshot.pending };
          else if (typeof resume === 'number' && Number.isInteger(resume) && resume >= 0 && resume <= task.lastEventSeq) from = await taskAt(call, task, resume);
          else throw new RequestMalformedError(`Last-Event-ID must be the atelier/seq of an update of this task (0 to ${task.lastEventSeq})`);
        } catch (e) {
          throw toA2aError(e);
        }
        yield { payload: { $case: 'task', value: snapshot.task } };
        for await (const u of followTask(call, from.task, from.pending, signalOf(ctx), { stopAtInterrupt: false })) yield u.response;
      })();
    },

    listTasks: guard(async (params: ListTasksRequest, ctx: ServerCallContext): Promise<ListTasksResponse> => {
      const call = callOf(ctx);
      const pageSize = Math.min(Math.max(params.pageSize ?? 20, 1), 50);
      const rows = await listTasks(call.deps, call.viewer, defaultWorkspaceId(call.viewer), { after: params.pageToken || null, limit: pageSize + 1, inverted: false });
      const page = rows.slice(0, pageSize);
      const tasks = [];
      for (const t of page) {
        const { task } = await a2aTask(call, t);
        tasks.push(params.includeArtifacts ? task : { ...task, artifacts: [] });
      }
      return { tasks, nextPageToken: rows.length > pageSize ? encodeKeyset(page.at(-1)!) : '', pageSize, totalSize: tasks.length };
    }),

    createTaskPushNotificationConfig: guard(async (params: TaskPushNotificationConfig, ctx: ServerCallContext) => {
      const call = callOf(ctx);
      const { config, task } = await setPushConfig(call.deps, call.viewer, { taskId: taskIdOf(params.taskId), configId: params.id || 'default', url: params.url, token: params.token });
      opts.push.follow(call, task, config.lastSeq);
      return { tenant: '', id: config.configId, taskId: params.taskId, url: config.url, token: '', authentication: undefined };
    }),

    getTaskPushNotificationConfig: guard(async (params: GetTaskPushNotificationConfigRequest, ctx: ServerCallContext) => {
      const c = await getPushConfig(callOf(ctx).deps, callOf(ctx).viewer, taskIdOf(params.taskId), params.id);
      // The secret is never read back: the client holds it.
      return { tenant: '', id: c.configId, taskId: params.taskId, url: c.url, token: '', authentication: undefined };
    }),

    listTaskPushNotificationConfigs: guard(async (params: ListTaskPushNotificationConfigsRequest, ctx: ServerCallContext): Promise<ListTaskPushNotificationConfigsResponse> => {
      const rows = await listPushConfigs(callOf(ctx).deps, callOf(ctx).viewer, taskIdOf(params.taskId));
      return { configs: rows.map((c) => ({ tenant: '', id: c.configId, taskId: params.taskId, url: c.url, token: '', authentication: undefined })), nextPageToken: '' };
    }),

    deleteTaskPushNotificationConfig: guard(async (params: DeleteTaskPushNotificationConfigRequest, ctx: ServerCallContext) => {
      await removePushConfig(callOf(ctx).deps, callOf(ctx).viewer, taskIdOf(params.taskId), params.id);
    }),
  };
  return handler;
}
