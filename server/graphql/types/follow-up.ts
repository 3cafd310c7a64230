import { loadFollowUps } from '../../services/follow-ups/list-follow-ups.ts';
import { builder } from '../builder.ts';
import { FollowUpStatusEnum } from '../enums/follow-up-status.ts';
import { FollowUpRef, TaskRef, UserRef } from '../refs.ts';

builder.node(FollowUpRef, {
  description:
    'A wake the agent asked for (its follow_up_at tool), to check on something by itself later: it wakes the task at wakeAt with a reminder in its inbox. Only in workspaces with follow-ups turned on (WorkspaceSettings.followUpsEnabled); a person may cancel it (cancelFollowUp), and it ends with its task. A woken turn spends money only through the usual approvals.',
  id: { resolve: (f) => f.id },
  loadManyWithoutCache: (ids, ctx) => loadFollowUps(ctx.deps, ctx.viewer, ids),
  fields: (t) => ({
    task: t.field({ type: TaskRef, description: 'The task it wakes.', resolve: (f, _a, ctx) => ctx.loaders.task.load(f.taskId).then((k) => k!) }),
    reason: t.exposeString('reason', { description: 'What the agent will check, in its words ("see whether the video\'s colours are right").' }),
    dueAt: t.expose('dueAt', { type: 'DateTime', description: 'When the agent asked to be woken.' }),
    wakeAt: t.expose('wakeAt', { type: 'DateTime', description: "When it wakes (or woke) the task: dueAt, moved to the end of the workspace's quiet hours when it falls inside them." }),
    deferred: t.boolean({ description: 'True when quiet hours moved the wake past dueAt.', resolve: (f) => f.wakeAt.getTime() !== f.dueAt.getTime() }),
    status: t.field({ type: FollowUpStatusEnum, description: 'Pending, fired or cancelled.', resolve: (f) => f.status }),
    firedAt: t.expose('firedAt', { type: 'DateTime', nullable: true, description: 'When it came due and its reminder reached the task; null unless FIRED.' }),
    cancelledAt: t.expose('cancelledAt', { type: 'DateTime', nullable: true, description: 'When it was cancelled; null unless CANCELLED.' }),
    cancelledBy: t.field({
      type: UserRef,
      nullable: true,
      description: 'The person who cancelled it; null when nobody did (the task ended, follow-ups were turned off) or it is not cancelled.',
      resolve: (f, _a, ctx) => (f.cancelledById ? ctx.loaders.user.load(f.cancelledById) : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the agent asked for it.' }),
  }),
});
