import { builder } from '../builder.ts';
import { MessageRef, ScheduleRunRef, TaskRef } from '../refs.ts';

builder.objectType(ScheduleRunRef, {
  description:
    'One run of a schedule: the slot it ran for. A slot runs at most once; slots missed while the server was down are folded into the next run (missedSlots) instead of each running late.',
  fields: (t) => ({
    slotAt: t.expose('slotAt', { type: 'DateTime', description: 'The slot this run was for: when it was due (the latest due slot, when several were missed).' }),
    ranAt: t.expose('createdAt', { type: 'DateTime', description: 'When it actually ran (later than slotAt when the server was down).' }),
    missedSlots: t.exposeInt('missedSlots', { description: 'Earlier slots that came due while nothing ran them, folded into this run (0 normally; counted up to 10,000).' }),
    task: t.field({
      type: TaskRef,
      nullable: true,
      description: 'The task this run started (TASK), or the one its message went to or started (MESSAGE); null when there is none or the viewer cannot see it.',
      resolve: (r, _a, ctx) => (r.taskId ? ctx.loaders.task.load(r.taskId) : null),
    }),
    message: t.field({
      type: MessageRef,
      nullable: true,
      description: "The message this run sent (MESSAGE schedules; visible to its creator, whose thread it is in); null until it is sent.",
      resolve: (r, _a, ctx) => (r.messageId ? ctx.loaders.message.load(r.messageId) : null),
    }),
  }),
});
