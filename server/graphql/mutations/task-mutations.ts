import type { Task } from '../../db/generated/client.ts';
import { createTask } from '../../services/tasks/create-task.ts';
import { archiveTask, mergeTasks, promoteTask } from '../../services/tasks/manage-task.ts';
import { signalTask } from '../../services/tasks/signal-task.ts';
import { updateTask } from '../../services/tasks/update-task.ts';
import { editChecklist } from '../../services/checklist/edit-checklist.ts';
import { builder } from '../builder.ts';
import { ChecklistItemStatusEnum } from '../types/checklist.ts';
import { parseGlobalId } from '../ids.ts';
import { TaskSignalEnum } from '../types/enums.ts';
import { TaskRef } from '../types/task.ts';

const TaskPayload = builder.objectRef<{ task: Task }>('TaskPayload').implement({
  fields: (t) => ({ task: t.field({ type: TaskRef, resolve: (p) => p.task }) }),
});

const CreateTaskInput = builder.inputType('CreateTaskInput', {
  fields: (t) => ({
    workspaceId: t.id({ required: true }),
    title: t.string({ required: true }),
    goal: t.string({ required: false }),
    idempotencyKey: t.string({ required: false, description: 'Retrying with the same key returns the same task.' }),
  }),
});

const UpdateTaskInput = builder.inputType('UpdateTaskInput', {
  fields: (t) => ({
    taskId: t.id({ required: true }),
    title: t.string({ required: false }),
    summary: t.string({ required: false }),
  }),
});

const SignalTaskInput = builder.inputType('SignalTaskInput', {
  fields: (t) => ({
    taskId: t.id({ required: true }),
    signal: t.field({ type: TaskSignalEnum, required: true }),
    reason: t.string({ required: false, description: 'Why (for PAUSE, RESUME, CANCEL); shown on the timeline.' }),
    text: t.string({ required: false, description: 'The instruction (REVISE) or context (ADD_CONTEXT).' }),
    idempotencyKey: t.string({ required: false, description: 'The same key never applies the signal twice.' }),
  }),
});

builder.mutationType({
  fields: (t) => ({
    archiveTask: t.field({
      type: TaskPayload,
      description: 'Archive (or unarchive) a task: it leaves the task list and the router stops offering it.',
      args: { taskId: t.arg.id({ required: true }), archived: t.arg.boolean({ required: false, defaultValue: true }) },
      resolve: async (_r, args, ctx) => ({
        task: await archiveTask(ctx.deps, ctx.viewer, parseGlobalId(String(args.taskId), 'Task', 'taskId'), args.archived ?? true),
      }),
    }),
    promoteTask: t.field({
      type: TaskPayload,
      description: 'Make a lightweight task a persistent one (context and journal kept).',
      args: { taskId: t.arg.id({ required: true }) },
      resolve: async (_r, args, ctx) => ({ task: await promoteTask(ctx.deps, ctx.viewer, parseGlobalId(String(args.taskId), 'Task', 'taskId')) }),
    }),
    mergeTasks: t.field({
      type: TaskPayload,
      description: 'Merge one task into another: unread messages move over, the source ends pointing at the target.',
      args: { sourceTaskId: t.arg.id({ required: true }), targetTaskId: t.arg.id({ required: true }) },
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
      args: { input: t.arg({ type: CreateTaskInput, required: true }) },
      resolve: async (_r, { input }, ctx) => ({
        task: await createTask(ctx.deps, ctx.viewer, {
          workspaceId: parseGlobalId(String(input.workspaceId), 'Workspace', 'input.workspaceId'),
          title: input.title,
          goal: input.goal ?? undefined,
          idempotencyKey: input.idempotencyKey ?? undefined,
        }),
      }),
    }),
    updateTask: t.field({
      type: TaskPayload,
      args: { input: t.arg({ type: UpdateTaskInput, required: true }) },
      resolve: async (_r, { input }, ctx) => ({
        task: await updateTask(ctx.deps, ctx.viewer, {
          taskId: parseGlobalId(String(input.taskId), 'Task', 'input.taskId'),
          title: input.title ?? undefined,
          summary: input.summary ?? undefined,
        }),
      }),
    }),
    signalTask: t.field({
      type: TaskPayload,
      description:
        'Send a signal to a task, applied at its next safe boundary. CANCEL is idempotent; a signal to an ended task is CONFLICT.',
      args: { input: t.arg({ type: SignalTaskInput, required: true }) },
      resolve: async (_r, { input }, ctx) => ({
        task: await signalTask(ctx.deps, ctx.viewer, {
          taskId: parseGlobalId(String(input.taskId), 'Task', 'input.taskId'),
          signal: input.signal,
          reason: input.reason ?? undefined,
          text: input.text ?? undefined,
          idempotencyKey: input.idempotencyKey ?? undefined,
        }),
      }),
    }),
  }),
});


const ChecklistItemInput = builder.inputType('ChecklistItemInput', {
  fields: (t) => ({
    id: t.string({ required: false, description: 'Keep an existing step (its progress and results) by id.' }),
    title: t.string({ required: true }),
    kind: t.string({ required: false }),
    count: t.int({ required: false }),
    status: t.field({ type: ChecklistItemStatusEnum, required: false, description: 'E.g. TODO to re-open a step.' }),
  }),
});

const EditChecklistInputType = builder.inputType('EditChecklistInput', {
  fields: (t) => ({
    taskId: t.id({ required: true }),
    baseVersion: t.int({ required: true, description: 'The version you edited; a stale one is a CONFLICT.' }),
    items: t.field({ type: [ChecklistItemInput], required: true }),
    reason: t.string({ required: false }),
  }),
});

builder.mutationFields((t) => ({
  editChecklist: t.field({
    type: TaskPayload,
    description: "Change a task's checklist (a change of direction). With the approve scope, the edited plan counts as approved.",
    args: { input: t.arg({ type: EditChecklistInputType, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      const taskId = parseGlobalId(String(input.taskId), 'Task', 'taskId');
      await editChecklist(ctx.deps, ctx.viewer, {
        taskId,
        baseVersion: input.baseVersion,
        reason: input.reason ?? undefined,
        items: input.items.map((i) => ({ id: i.id ?? undefined, title: i.title, kind: i.kind ?? undefined, count: i.count ?? undefined, status: i.status ?? undefined })),
      });
      return { task: await ctx.deps.prisma.task.findUniqueOrThrow({ where: { id: taskId } }) };
    },
  }),
}));
