import { editTaskChecklist } from '../../services/checklist/edit-task-checklist.ts';
import { createTask } from '../../services/tasks/create-task.ts';
import { archiveTask, mergeTasks, promoteTask } from '../../services/tasks/manage-task.ts';
import { signalTask } from '../../services/tasks/signal-task.ts';
import { updateTask } from '../../services/tasks/update-task.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { CreateTaskInput } from '../inputs/create-task-input.ts';
import { EditChecklistInput } from '../inputs/edit-checklist-input.ts';
import { SignalTaskInput } from '../inputs/signal-task-input.ts';
import { UpdateTaskInput } from '../inputs/update-task-input.ts';
import { TaskPayload } from '../payloads/task-payload.ts';

builder.mutationFields((t) => ({
  archiveTask: t.field({
    type: TaskPayload,
    description: 'Archive (or unarchive) a task: it leaves the task list and the router stops offering it.',
    args: {
      taskId: t.arg.id({ required: true, description: 'The task (Task.id).' }),
      archived: t.arg.boolean({ required: false, defaultValue: true, description: 'False to bring an archived task back.' }),
    },
    resolve: async (_r, args, ctx) => ({
      task: await archiveTask(ctx.deps, ctx.viewer, parseGlobalId(String(args.taskId), 'Task', 'taskId'), args.archived ?? true),
    }),
  }),
  promoteTask: t.field({
    type: TaskPayload,
    description: 'Make a lightweight task a persistent one (context and journal kept).',
    args: { taskId: t.arg.id({ required: true, description: 'The lightweight task (Task.id).' }) },
    resolve: async (_r, args, ctx) => ({ task: await promoteTask(ctx.deps, ctx.viewer, parseGlobalId(String(args.taskId), 'Task', 'taskId')) }),
  }),
  mergeTasks: t.field({
    type: TaskPayload,
    description: 'Merge one task into another: unread messages move over, the source ends pointing at the target.',
    args: {
      sourceTaskId: t.arg.id({ required: true, description: 'The task merged away (Task.id).' }),
      targetTaskId: t.arg.id({ required: true, description: 'The task that goes on (Task.id).' }),
    },
    resolve: async (_r, args, ctx) => ({
      task: await mergeTasks(
        ctx.deps,
        ctx.viewer,
        parseGlobalId(String(args.sourceTaskId), 'Task', 'sourceTaskId'),
        parseGlobalId(String(args.targetTaskId), 'Task', 'targetTaskId'),
      ),
    }),
  }),
  createTask: t.field({
    type: TaskPayload,
    description:
      'Create a task and start it: its first turn is queued with it (status QUEUED), and the agent plans from the goal — the title when no goal is given. There are no drafts.',
    args: { input: t.arg({ type: CreateTaskInput, required: true, description: 'The task.' }) },
    resolve: async (_r, { input }, ctx) => ({
      task: await createTask(ctx.deps, ctx.viewer, {
        workspaceId: parseGlobalId(String(input.workspaceId), 'Workspace', 'input.workspaceId'),
        title: input.title,
        goal: input.goal ?? undefined,
        idempotencyKey: input.idempotencyKey ?? undefined,
        inputPolicy: input.inputPolicy ?? undefined,
      }),
    }),
  }),
  updateTask: t.field({
    type: TaskPayload,
    description: "Change a task's title, summary or input policy.",
    args: { input: t.arg({ type: UpdateTaskInput, required: true, description: 'The task and what to change.' }) },
    resolve: async (_r, { input }, ctx) => ({
      task: await updateTask(ctx.deps, ctx.viewer, {
        taskId: parseGlobalId(String(input.taskId), 'Task', 'input.taskId'),
        title: input.title ?? undefined,
        summary: input.summary ?? undefined,
        inputPolicy: input.inputPolicy ?? undefined,
      }),
    }),
  }),
  signalTask: t.field({
    type: TaskPayload,
    description:
      'Send a signal to a task, applied at its next safe boundary. CANCEL is idempotent; a signal to an ended task is CONFLICT.',
    args: { input: t.arg({ type: SignalTaskInput, required: true, description: 'The task and the signal.' }) },
    resolve: async (_r, { input }, ctx) => ({
      task: await signalTask(ctx.deps, ctx.viewer, {
        taskId: parseGlobalId(String(input.taskId), 'Task', 'input.taskId'),
        signal: input.signal,
        reason: input.reason ?? undefined,
        text: input.text ?? undefined,
        idempotencyKey: input.idempotencyKey ?? undefined,
        inputPolicy: input.inputPolicy ?? undefined,
      }),
    }),
  }),
  editChecklist: t.field({
    type: TaskPayload,
    description: "Change a task's checklist (a change of direction). With the approve scope, the edited plan counts as approved.",
    args: { input: t.arg({ type: EditChecklistInput, required: true, description: 'The task, the version edited and the new checklist.' }) },
    resolve: async (_r, { input }, ctx) => ({
      task: await editTaskChecklist(ctx.deps, ctx.viewer, {
        taskId: parseGlobalId(String(input.taskId), 'Task', 'input.taskId'),
        baseVersion: input.baseVersion,
        reason: input.reason ?? undefined,
        items: input.items.map((i) => ({ id: i.id ?? undefined, title: i.title, kind: i.kind ?? undefined, count: i.count ?? undefined, status: i.status ?? undefined, after: i.after ?? undefined })),
      }),
    }),
  }),
}));
