// One MCP server per session (the SDK's low-level Server: the tools, their task mode and the
// errors are ours to shape). Tools and resources are adapters over the services (tools.ts,
// resources.ts); MCP tasks are the Atelier tasks themselves (tasks.ts).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode as RpcCode,
  GetTaskPayloadRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  RELATED_TASK_META_KEY,
  type CallToolResult,
  type ServerNotification,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { authenticateToken } from '../../auth/viewer.ts';
import { AppError, badInput, isAppError } from '../../errors.ts';
import { globalId } from '../../graphql/ids.ts';
import type { Task } from '../../db/generated/client.ts';
import { visibilityOf } from '../../domain/event-catalog.ts';
import { isTerminal } from '../../domain/task-status.ts';
import { subscribeTaskEvents } from '../../services/events/subscribe-events.ts';
import { presentEvents } from './events.ts';
import { listResources, readResource, RESOURCE_TEMPLATES } from './resources.ts';
import { atelierTaskStore, loadMcpTask, POLL_INTERVAL_MS, taskResult } from './tasks.ts';
import { TOOLS } from './tools.ts';
import type { McpCall } from './task-view.ts';

/** How often a waiting tasks/result checks its token again, unless ATELIER_WS_REAUTH_MS says (as for open WebSockets). */
const REAUTH_MS = 5_000;

export const SERVER_INFO = { name: 'atelier', title: 'Atelier', version: '1.0.0' };

const INSTRUCTIONS =
  'Atelier is a workspace where people and a creative agent make posters, videos, 3D scenes and documents. ' +
  'Start work with send_message (routed like a message in the studio) or create_task; follow it with get_task, read_events or as an MCP task. ' +
  'Approvals (plans, prices, picks) are decided by a person in the Atelier studio: list_pending_cards shows them, no tool answers them.';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest as Tool['inputSchema'];
};

const TOOL_LIST: Tool[] = TOOLS.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: jsonSchema(t.input, 'input'),
  outputSchema: jsonSchema(t.output, 'output') as Tool['outputSchema'],
  annotations: { title: t.title, ...t.annotations },
  execution: { taskSupport: t.task ? 'optional' : 'forbidden' },
}));
const BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));

/** An Atelier error as a tool result: the sentence and the stable code, never a stack. */
export function errorResult(e: AppError): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${e.message} (${e.code})` }],
    _meta: { 'atelier/error': { code: e.code, ...(e.details ?? {}) } },
  };
}

/** An Atelier error as a JSON-RPC error (task creation, resources): the sentence, the code in data. */
export function rpcError(e: AppError): McpError {
  const rpc = e.code === 'BAD_USER_INPUT' || e.code === 'NOT_FOUND' ? RpcCode.InvalidParams : RpcCode.InvalidRequest;
  return new McpError(rpc, `${e.message} (${e.code})`, { code: e.code, ...(e.details ?? {}) });
}


type Extra = {
  signal: AbortSignal;
  authInfo?: { token?: string };
  sendNotification(n: ServerNotification): Promise<void>;
};

/**
 * Follows a task from its last event until it ends, on the live task feed (deps.hub, the feed the
 * GraphQL subscriptions use): a milestone is sent the moment its event is sequenced, woken by
 * LISTEN/NOTIFY, and the wait between events holds no database connection. The feed's own safety
 * poll (ATELIER_EVENT_POLL_MS) covers a lost notification, so nothing here polls. A task's status
 * only changes with a TASK_STATUS_CHANGED event in the same transaction (store/tasks/apply-transition.ts),
 * so the task is read again on exactly those events, and the wait ends at the first terminal one.
 * The stream starts after the task's lastEventSeq as read together with its status: an ending
 * committed after that read is an event the stream delivers.
 */
async function followToEnd(call: McpCall, start: Task, mcpTaskId: string, progressToken: string | number | undefined, extra: Extra): Promise<Task> {
  const ac = new AbortController();
  const stream = await subscribeTaskEvents(call.deps, call.viewer, start.id, start.lastEventSeq, ac.signal);
  const cancelled = () => ac.abort();
  if (extra.signal.aborted) ac.abort();
  else extra.signal.addEventListener('abort', cancelled, { once: true });
  // A wait may last hours: the token is checked again now and then, so a revoked one ends it.
  let refused: AppError | null = null;
  const token = extra.authInfo?.token;
  const reauth = token
    ? setInterval(() => {
        authenticateToken(call.deps.prisma, token).catch((e: unknown) => {
          if (!isAppError(e)) return call.deps.log.warn('mcp tasks/result could not re-check its token', { error: (e as Error)?.message });
          refused = e;
          ac.abort();
        });
      }, call.deps.config.wsReauthMs ?? REAUTH_MS)
    : undefined;
  let progress = 0;
  let current = start;
  try {
    for await (const event of stream) {
      if (visibilityOf(event.type) === 'MILESTONE') {
        const [e] = await presentEvents(call, [event]);
        await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', logger: 'atelier', data: { taskId: e!.taskId, seq: e!.seq, type: e!.type, text: e!.text } } });
        if (progressToken !== undefined) {
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: ++progress, message: e!.text } });
        }
      }
      if (event.type !== 'TASK_STATUS_CHANGED') continue;
      const next = await loadMcpTask(call, mcpTaskId);
      if (!next) throw new McpError(RpcCode.InvalidParams, `Task not found: ${mcpTaskId}`);
      current = next.task;
      if (isTerminal(current.status)) break;
    }
  } finally {
    clearInterval(reauth);
    extra.signal.removeEventListener('abort', cancelled);
    await stream.return?.();
  }
  if (refused) throw rpcError(refused);
  if (extra.signal.aborted) throw new McpError(RpcCode.InvalidRequest, 'Request cancelled');
  // The feed ends early only when the server stops.
  if (!isTerminal(current.status)) throw new McpError(RpcCode.InternalError, 'The server is shutting down; ask for the result again');
  return current;
}

/**
 * `callOf` gives the deps, the viewer and the public URL of the request being served: the transport
 * authenticates every HTTP request and passes them in authInfo; the session's latest serves the
 * SDK's task store, whose methods receive no request.
 */
/**
 * `hold` marks the session as in use for as long as a tasks/result wait runs: the client whose
 * stream broke comes back with Last-Event-ID for the answer, so the session must outlive the
 * connection (the idle sweep counts holds as well as open requests).
 */
export function createMcpServer(session: { call(): McpCall; hold?: () => () => void }): Server {
  const callOf = (extra?: { authInfo?: { extra?: Record<string, unknown> } }): McpCall => (extra?.authInfo?.extra?.call as McpCall | undefined) ?? session.call();
  const server = new Server(SERVER_INFO, {
    capabilities: {
      tools: {},
      resources: {},
      logging: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    },
    instructions: INSTRUCTIONS,
    taskStore: atelierTaskStore(() => session.call()),
    defaultTaskPollInterval: POLL_INTERVAL_MS,
  });

  const fail = (call: McpCall, e: unknown): AppError => {
    if (isAppError(e)) return e;
    call.deps.log.error('mcp tool failed', { error: (e as Error)?.message, stack: (e as Error)?.stack });
    return new AppError('INTERNAL', 'Unexpected error.');
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_LIST }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const call = callOf(extra);
    const def = BY_NAME.get(request.params.name);
    if (!def) throw new McpError(RpcCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const asTask = !!request.params.task;
    if (asTask && !def.task) throw new McpError(RpcCode.InvalidParams, `${def.name} does not run as a task (taskSupport: forbidden)`);
    const parsed = def.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      const e = badInput(`Invalid input: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`);
      if (asTask) throw rpcError(e);
      return errorResult(e);
    }
    let r;
    try {
      r = await def.run(call, parsed.data);
    } catch (e) {
      if (asTask) throw rpcError(fail(call, e));
      return errorResult(fail(call, e));
    }
    if (asTask) {
      // The MCP task is the Atelier task the call started or reached.
      if (!r.taskId) throw new McpError(RpcCode.InvalidRequest, `The message reached no task, so there is nothing to follow as a task: ${r.text}`);
      const found = await loadMcpTask(call, globalId('Task', r.taskId));
      if (!found) throw new McpError(RpcCode.InternalError, 'The task could not be read back');
      return { task: found.mcp };
    }
    return { content: [{ type: 'text', text: r.text }], structuredContent: r.structured };
  });

  // tasks/result: blocks until the Atelier task ends, streaming its milestones meanwhile as logging
  // notifications (and as progress, when the request carries a progress token).
  server.setRequestHandler(GetTaskPayloadRequestSchema, async (request, extra) => {
    const call = callOf(extra);
    const release = session.hold?.() ?? (() => {});
    try {
      const first = await loadMcpTask(call, request.params.taskId);
      if (!first) throw new McpError(RpcCode.InvalidParams, `Task not found: ${request.params.taskId}`);
      const ended = isTerminal(first.task.status) ? first.task : await followToEnd(call, first.task, request.params.taskId, request.params._meta?.progressToken, extra);
      const result = await taskResult(call, ended);
      return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: request.params.taskId } } };
    } finally {
      release();
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
    const call = callOf(extra);
    try {
      return await listResources(call, request.params?.cursor);
    } catch (e) {
      throw rpcError(fail(call, e));
    }
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const call = callOf(extra);
    try {
      return await readResource(call, request.params.uri);
    } catch (e) {
      throw rpcError(fail(call, e));
    }
  });
  return server;
}
