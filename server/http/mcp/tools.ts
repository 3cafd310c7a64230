// The MCP tools: each one is a thin adapter, like a GraphQL resolver — it takes ids as the API's
// global ids, calls the one service the matching mutation or query calls, with the caller's viewer
// (so scopes, roles and workspaces are checked exactly as in GraphQL), and returns structured
// content that its output schema describes, plus a short text. Resolving approvals is left out on
// purpose: a card waits for a person, in the studio; list_pending_cards only shows them.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { INPUT_POLICIES } from '../../domain/input-policy.ts';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { defaultWorkspaceId } from '../../auth/access.ts';
import { listApprovals } from '../../services/approvals/list-approvals.ts';
import { listTaskEvents } from '../../services/events/list-task-events.ts';
import { listWorkspaceEvents } from '../../services/events/list-workspace-events.ts';
import { sendMessage } from '../../services/messages/send-message.ts';
import { createTask } from '../../services/tasks/create-task.ts';
import { listTasks } from '../../services/tasks/list-tasks.ts';
import { signalTask } from '../../services/tasks/signal-task.ts';
import { encodeKeyset } from '../../services/keyset.ts';
import { loadMessages } from '../../services/threads/load-threads.ts';
import { globalId, parseGlobalId } from '../../graphql/ids.ts';
import { publicText } from '../../graphql/public-ids.ts';
import { EventOut, presentEvents } from './events.ts';
import { CardOut, cardOut, presentTask, statusText, TaskOut, TaskStatusWord, taskOut, type McpCall } from './task-view.ts';

export type ToolResult = { structured: Record<string, unknown>; text: string };

export type ToolDef<I extends z.ZodType = z.ZodType> = {
  name: string;
  title: string;
  description: string;
  input: I;
  output: z.ZodType<Record<string, unknown>>;
  annotations: ToolAnnotations;
  /** Tools whose work goes on after the call: a client may run them as an MCP task. */
  task?: boolean;
  run(call: McpCall, args: z.output<I>): Promise<ToolResult & { taskId?: string | null }>;
};

const tool = <I extends z.ZodType>(d: ToolDef<I>): ToolDef => d as unknown as ToolDef;

const TaskId = z.string().min(1).max(200).describe('The task (its global id, as the tools and the GraphQL API give it).');
const Key = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe('Makes retries safe: the same key returns the first result instead of doing it again.');

/** The result every task-shaped answer shares; tasks/result returns exactly this for an MCP task. */
export const TaskResult = z.object({ task: TaskOut });

export const taskText = (t: TaskOut) =>
  `${t.title} — ${t.statusText}${t.checklist ? ` (${t.checklist.done} of ${t.checklist.total} steps)` : ''}${t.results.length ? `; ${t.results.length} result(s)` : ''}`;

const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const TOOLS: ToolDef[] = [
  tool({
    name: 'send_message',
    title: 'Send a message',
    description:
      "Write in the workspace's main thread, as a person does in the studio. Atelier routes the message: to the task it is about, to a new task, or it asks which one (a question card answered in the studio). Returns where it went. Can run as an MCP task when it reaches a task.",
    input: z.object({
      text: z.string().min(1).max(20_000).describe('The message.'),
      idempotencyKey: Key,
      inputPolicy: z
        .enum(INPUT_POLICIES)
        .optional()
        .describe("If the message reaches a task that is running: QUEUE (read after the current step), INTERRUPT (skip what it was about to do next and read this first), REJECT (refuse while busy), ROLLBACK (start the turn over with this). Default: the task's own."),
    }),
    // Every field but task is optional: run as an MCP task, its result is the task alone ({ task }).
    output: z.object({
      task: TaskOut.nullable().describe('The task the message went to (existing or new); null when it went nowhere yet.'),
      messageId: z.string().optional(),
      outcome: z.string().optional().describe('How it was routed: to an existing task, a new task, a question, or an answer in the thread.'),
      routedTo: z.string().optional().describe('Where it went, in words.'),
      questionCardId: z.string().nullable().optional().describe('Set when Atelier asks a person where the message goes (answered in the studio).'),
      reply: z.string().nullable().optional().describe("Atelier's reply in the thread, if any."),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    task: true,
    run: async (call, args) => {
      const workspaceId = defaultWorkspaceId(call.viewer);
      const r = await sendMessage(call.deps, call.viewer, { workspaceId, text: args.text, idempotencyKey: args.idempotencyKey ?? randomUUID(), ...(args.inputPolicy ? { inputPolicy: args.inputPolicy } : {}) });
      const task = r.taskId ? await taskOut(call, r.taskId) : null;
      const [reply] = r.replyId ? await loadMessages(call.deps, call.viewer, [r.replyId]) : [null];
      const routedTo = task ? `task “${task.title}” (${task.statusText})` : r.cardId ? 'a question: which task is it about? (answer it in the studio)' : 'the main thread';
      return {
        structured: {
          messageId: globalId('Message', r.messageId),
          outcome: r.decision.outcome,
          routedTo,
          questionCardId: r.cardId ? globalId('Approval', r.cardId) : null,
          reply: reply ? publicText(reply.text) : null,
          task,
        },
        text: `Sent → ${routedTo}${reply ? `\n${publicText(reply.text)}` : ''}`,
        taskId: r.taskId,
      };
    },
  }),
  tool({
    name: 'create_task',
    title: 'Create a task',
    description:
      'Create a task and start it: the agent plans from the goal (the title when no goal is given). Work that needs a person (a plan, a price, a pick) waits for them in the studio. Can run as an MCP task: working, input_required while a person decides, then completed, failed or cancelled.',
    input: z.object({
      title: z.string().trim().min(1).max(200).describe('What the task is called.'),
      goal: z.string().max(10_000).optional().describe('What the work is for.'),
      idempotencyKey: Key,
    }),
    output: TaskResult,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    task: true,
    run: async (call, args) => {
      const workspaceId = defaultWorkspaceId(call.viewer);
      const created = await createTask(call.deps, call.viewer, { workspaceId, title: args.title, goal: args.goal, idempotencyKey: args.idempotencyKey });
      const task = await presentTask(call, created);
      return { structured: { task }, text: `Created: ${taskText(task)}\nid: ${task.id}`, taskId: created.id };
    },
  }),
  tool({
    name: 'get_task',
    title: 'Get a task',
    description: 'A task: its status in words, checklist, cards waiting for a person, and results with signed download URLs.',
    input: z.object({ taskId: TaskId }),
    output: TaskResult,
    annotations: READ,
    run: async (call, args) => {
      const task = await taskOut(call, parseGlobalId(args.taskId, 'Task', 'taskId'));
      const files = task.results.filter((r) => r.file?.url).map((r) => `${r.title}: ${r.file!.url}`);
      return { structured: { task }, text: [taskText(task), ...files].join('\n') };
    },
  }),
  tool({
    name: 'list_tasks',
    title: 'List tasks',
    description: "The workspace's tasks, newest first (each line of work once, as its latest round).",
    input: z.object({
      statuses: z.array(TaskStatusWord).max(8).optional().describe('Only tasks in these statuses.'),
      first: z.number().int().min(1).max(100).optional().describe('Page size (default 20).'),
      after: z.string().max(500).optional().describe('The nextCursor of the previous page.'),
    }),
    output: z.object({
      tasks: z.array(z.object({ id: z.string(), title: z.string(), status: TaskStatusWord, statusText: z.string(), isTerminal: z.boolean(), updatedAt: z.string() })),
      nextCursor: z.string().nullable(),
    }),
    annotations: READ,
    run: async (call, args) => {
      const workspaceId = defaultWorkspaceId(call.viewer);
      const limit = args.first ?? 20;
      const rows = await listTasks(call.deps, call.viewer, workspaceId, { after: args.after ?? null, limit: limit + 1, inverted: false }, { statuses: args.statuses ?? null });
      const page = rows.slice(0, limit);
      // One read for the cards of the whole page: which of these tasks wait for a person.
      const pending = page.some((t) => t.status === 'WAITING')
        ? await listApprovals(call.deps, call.viewer, { workspaceId, statuses: ['PENDING'] }, { limit: 100, inverted: false })
        : [];
      const tasks = page.map((t) => ({
        id: globalId('Task', t.id),
        title: t.title,
        status: t.status,
        statusText: statusText(t, pending.filter((a) => a.taskId === t.id)),
        isTerminal: ['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'].includes(t.status),
        updatedAt: t.updatedAt.toISOString(),
      }));
      const nextCursor = rows.length > limit ? encodeKeyset(page.at(-1)!) : null;
      return { structured: { tasks, nextCursor }, text: tasks.map((t) => `${t.title} — ${t.statusText} [${t.id}]`).join('\n') || 'No tasks.' };
    },
  }),
  tool({
    name: 'signal_task',
    title: 'Pause, resume, revise or add context',
    description:
      'Steer a running task, applied at its next safe boundary: PAUSE, RESUME, REVISE (a change of direction, with text) or ADD_CONTEXT (with text). A card the task waits on is set aside by REVISE and ADD_CONTEXT. To stop a task for good, use cancel_task.',
    input: z.object({
      taskId: TaskId,
      signal: z.enum(['PAUSE', 'RESUME', 'REVISE', 'ADD_CONTEXT']),
      text: z.string().trim().min(1).max(20_000).optional().describe('The instruction or context (REVISE and ADD_CONTEXT).'),
      reason: z.string().trim().max(2000).optional().describe('Why (PAUSE and RESUME).'),
      inputPolicy: z.enum(INPUT_POLICIES).optional().describe("For REVISE and ADD_CONTEXT while the task runs: QUEUE, INTERRUPT, REJECT or ROLLBACK (default: the task's own)."),
      idempotencyKey: Key,
    }),
    output: TaskResult,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async (call, args) => {
      const taskId = parseGlobalId(args.taskId, 'Task', 'taskId');
      await signalTask(call.deps, call.viewer, { taskId, signal: args.signal, text: args.text, reason: args.reason, idempotencyKey: args.idempotencyKey, inputPolicy: args.inputPolicy });
      const task = await taskOut(call, taskId);
      return { structured: { task }, text: `${args.signal} sent. ${taskText(task)}` };
    },
  }),
  tool({
    name: 'cancel_task',
    title: 'Cancel a task',
    description: 'Stop a task for good (its running generations are cancelled at the provider). Cancelling a cancelled task changes nothing; an ended task cannot be cancelled.',
    input: z.object({ taskId: TaskId, reason: z.string().trim().max(2000).optional().describe('Why, in a sentence.') }),
    output: TaskResult,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async (call, args) => {
      const taskId = parseGlobalId(args.taskId, 'Task', 'taskId');
      await signalTask(call.deps, call.viewer, { taskId, signal: 'CANCEL', reason: args.reason });
      const task = await taskOut(call, taskId);
      return { structured: { task }, text: `Cancelled. ${taskText(task)}` };
    },
  }),
  tool({
    name: 'list_pending_cards',
    title: 'Cards waiting for a person',
    description:
      'Approvals (plan, price, pick, irreversible actions, questions) waiting for a person, newest first. Read-only: a person answers them in the Atelier studio; no tool answers a card.',
    input: z.object({ taskId: TaskId.optional().describe('Only the cards of this task.') }),
    output: z.object({ cards: z.array(CardOut) }),
    annotations: READ,
    run: async (call, args) => {
      const workspaceId = defaultWorkspaceId(call.viewer);
      const taskId = args.taskId ? parseGlobalId(args.taskId, 'Task', 'taskId') : undefined;
      if (taskId) await taskOut(call, taskId); // another workspace's task is NOT_FOUND, not an empty list
      const rows = await listApprovals(call.deps, call.viewer, { workspaceId, taskId, statuses: ['PENDING'] }, { limit: 100, inverted: false });
      const cards = rows.map(cardOut);
      return { structured: { cards }, text: cards.map((c) => `${c.kind}: ${c.title} [${c.id}]`).join('\n') || 'No card waits for a person.' };
    },
  }),
  tool({
    name: 'read_events',
    title: 'Read events',
    description:
      "Events after a cursor, oldest first, with their typed fields. With taskId: that task's log after the seq `afterSeq`. Without: the whole workspace's events after `after` (a cursor from a previous page). Resume from nextCursor / lastSeq.",
    input: z.object({
      taskId: TaskId.optional(),
      afterSeq: z.number().int().min(0).optional().describe("With taskId: return the task's events with seq > afterSeq (default 0)."),
      after: z.string().max(500).optional().describe('Without taskId: the workspace cursor to read after (default: the beginning).'),
      milestonesOnly: z.boolean().optional().describe('Only what a person following the work cares about (MILESTONE events).'),
      first: z.number().int().min(1).max(500).optional().describe('Page size (default 100).'),
    }),
    output: z.object({
      events: z.array(EventOut),
      hasMore: z.boolean(),
      nextCursor: z.string().nullable().describe('The cursor of the last event returned (workspace reads).'),
      lastSeq: z.number().int().nullable().describe('The seq of the last event returned (task reads).'),
    }),
    annotations: READ,
    run: async (call, args) => {
      const filter = args.milestonesOnly ? { visibility: ['MILESTONE' as const] } : {};
      const page = args.taskId
        ? await listTaskEvents(call.deps, call.viewer, parseGlobalId(args.taskId, 'Task', 'taskId'), { after: args.afterSeq ?? 0, first: args.first ?? 100, ...filter })
        : await listWorkspaceEvents(call.deps, call.viewer, defaultWorkspaceId(call.viewer), { after: args.after ?? null, first: args.first ?? 100, ...filter });
      const events = await presentEvents(call, page.events);
      const last = events.at(-1);
      return {
        structured: {
          events,
          hasMore: page.hasNextPage,
          nextCursor: last?.cursor ?? (args.taskId ? null : (args.after ?? null)),
          lastSeq: args.taskId ? (last?.seq ?? args.afterSeq ?? 0) : null,
        },
        text: events.map((e) => `#${e.seq} ${e.type}: ${e.text}`).join('\n') || 'No new events.',
      };
    },
  }),
];
