// MCP tasks are Atelier tasks. The MCP task id IS the Atelier task's global id, so nothing maps one
// to the other and nothing is stored: tasks/get, tasks/result, tasks/list and tasks/cancel read and
// signal the task through the services with the viewer of the request, from any session, on any API
// process — a client can disconnect, start a new session and poll the same task. Binding a task to
// the session that created it (what the SDK suggests for shared stores) would break exactly that;
// access is decided by the token's workspace and scopes, as everywhere else.
//
// Status: QUEUED/RUNNING/WAITING/PAUSED → working (input_required while a card waits for a person),
// COMPLETED → completed, FAILED/BUDGET_EXCEEDED → failed, CANCELLED → cancelled.
import type { TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { CallToolResult, Task as McpTask } from '@modelcontextprotocol/sdk/types.js';
import type { Task } from '../../db/generated/client.ts';
import { isAppError } from '../../errors.ts';
import { listApprovals } from '../../services/approvals/list-approvals.ts';
import { listTasks } from '../../services/tasks/list-tasks.ts';
import { getTask } from '../../services/tasks/get-task.ts';
import { signalTask } from '../../services/tasks/signal-task.ts';
import { encodeKeyset } from '../../services/keyset.ts';
import { defaultWorkspaceId } from '../../auth/access.ts';
import { decodeLenient, globalId } from '../../graphql/ids.ts';
import { taskText } from './tools.ts';
import { pendingCardsOf, presentTask, statusText, type McpCall } from './task-view.ts';

/** How often a client should poll tasks/get (a waiting tasks/result is woken by the live feed instead). */
export const POLL_INTERVAL_MS = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The Atelier task's raw id in an MCP task id, or null when it names no task. */
export function atelierTaskId(mcpTaskId: string): string | null {
  const d = decodeLenient(mcpTaskId);
  return d && d.typename === 'Task' && UUID.test(d.id) ? d.id.toLowerCase() : null;
}

export function mcpStatus(task: Pick<Task, 'status'>, pendingCards: number): McpTask['status'] {
  switch (task.status) {
    case 'COMPLETED':
      return 'completed';
    case 'FAILED':
    case 'BUDGET_EXCEEDED':
      return 'failed';
    case 'CANCELLED':
      return 'cancelled';
    default:
      return pendingCards > 0 && task.status !== 'PAUSED' ? 'input_required' : 'working';
  }
}

export function mcpTask(task: Task, pending: readonly { title: string }[]): McpTask {
  return {
    taskId: globalId('Task', task.id),
    status: mcpStatus(task, pending.length),
    // Atelier keeps tasks: nothing expires.
    ttl: null,
    createdAt: task.createdAt.toISOString(),
    lastUpdatedAt: task.updatedAt.toISOString(),
    pollInterval: POLL_INTERVAL_MS,
    statusMessage: statusText(task, pending),
  };
}

/** The task and its MCP view, or null when the caller cannot see it (another workspace, no such task). */
export async function loadMcpTask(call: McpCall, mcpTaskId: string): Promise<{ task: Task; mcp: McpTask } | null> {
  const id = atelierTaskId(mcpTaskId);
  if (!id) return null;
  try {
    const task = await getTask(call.deps, call.viewer, id);
    return { task, mcp: mcpTask(task, await pendingCardsOf(call, task)) };
  } catch (e) {
    if (isAppError(e) && (e.code === 'NOT_FOUND' || e.code === 'FORBIDDEN')) return null;
    throw e;
  }
}

/** What tasks/result returns: the task as create_task and get_task show it. A failed task is an error result. */
export async function taskResult(call: McpCall, task: Task): Promise<CallToolResult> {
  const out = await presentTask(call, task);
  return {
    content: [{ type: 'text', text: taskText(out) }],
    structuredContent: { task: out },
    ...(out.status === 'FAILED' || out.status === 'BUDGET_EXCEEDED' ? { isError: true } : {}),
  };
}

/**
 * The SDK's task store, derived from the Atelier tasks. `callOf` gives the viewer of the request
 * being served (the store's methods receive only the session id).
 */
export function atelierTaskStore(callOf: () => McpCall): TaskStore {
  return {
    createTask: async () => {
      // Tasks are created by the tools (create_task, send_message), which return the Atelier task.
      throw new Error('MCP tasks are created by the create_task and send_message tools');
    },
    getTask: async (taskId) => (await loadMcpTask(callOf(), taskId))?.mcp ?? null,
    storeTaskResult: async () => {
      throw new Error('An MCP task’s result is its Atelier task; nothing is stored');
    },
    getTaskResult: async (taskId) => {
      const call = callOf();
      const found = await loadMcpTask(call, taskId);
      if (!found) throw new Error('Task not found');
      return taskResult(call, found.task);
    },
    updateTaskStatus: async (taskId, status) => {
      // The only status a client sets is cancelled (tasks/cancel): the Atelier task is cancelled.
      if (status !== 'cancelled') return;
      const id = atelierTaskId(taskId);
      if (!id) throw new Error('Task not found');
      await signalTask(callOf().deps, callOf().viewer, { taskId: id, signal: 'CANCEL', reason: 'Cancelled through MCP (tasks/cancel)' });
    },
    listTasks: async (cursor) => {
      const call = callOf();
      const workspaceId = defaultWorkspaceId(call.viewer);
      const limit = 50;
      const rows = await listTasks(call.deps, call.viewer, workspaceId, { after: cursor ?? null, limit: limit + 1, inverted: false });
      const page = rows.slice(0, limit);
      const pending = await listApprovals(call.deps, call.viewer, { workspaceId, statuses: ['PENDING'] }, { limit: 100, inverted: false });
      return {
        tasks: page.map((t) => mcpTask(t, pending.filter((a) => a.taskId === t.id))),
        ...(rows.length > limit ? { nextCursor: encodeKeyset(page.at(-1)!) } : {}),
      };
    },
  };
}
