// Task.followUps: the wakes the agent asked for on a task.
import { builder } from '../builder.ts';
import { FollowUpStatusEnum } from '../enums/follow-up-status.ts';
import { FollowUpRef, TaskRef } from '../refs.ts';

builder.objectFields(TaskRef, (t) => ({
  followUps: t.field({
    type: [FollowUpRef],
    description: 'Follow-ups the agent asked for on this task (to check on something later by itself), soonest wake first. Cancel a pending one with cancelFollowUp.',
    args: { statuses: t.arg({ type: [FollowUpStatusEnum], required: false, description: 'Only follow-ups in these statuses (e.g. [PENDING]); all when absent.' }) },
    resolve: async (task, args, ctx) => {
      const all = await ctx.loaders.followUpsByTask.load(task.id);
      return args.statuses?.length ? all.filter((f) => args.statuses!.includes(f.status)) : all;
    },
  }),
}));
