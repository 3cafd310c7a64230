// Workspace.schedules: the workspace's schedules, for every member.
import { listSchedules } from '../../services/schedules/list-schedules.ts';
import { builder } from '../builder.ts';
import { ScheduleRef, WorkspaceRef } from '../refs.ts';

builder.objectFields(WorkspaceRef, (t) => ({
  schedules: t.field({
    type: [ScheduleRef],
    description: 'The messages and tasks scheduled in this workspace (at most 200), the next to run first, then paused and finished ones. Members make them with createSchedule.',
    resolve: (w, _a, ctx) => listSchedules(ctx.deps, ctx.viewer, w.id),
  }),
}));
