// Task.schedule: the schedule whose run started a task.
import { scheduleOfTask } from '../../services/schedules/list-schedules.ts';
import { builder } from '../builder.ts';
import { ScheduleRef, TaskRef } from '../refs.ts';

builder.objectFields(TaskRef, (t) => ({
  schedule: t.field({
    type: ScheduleRef,
    nullable: true,
    description: 'The schedule whose run started this task; null when none did, or that schedule was deleted.',
    resolve: (task, _a, ctx) => scheduleOfTask(ctx.deps, ctx.viewer, task),
  }),
}));
