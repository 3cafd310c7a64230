import { describeSchedule } from '../../domain/schedule-slots.ts';
import { loadSchedules } from '../../services/schedules/list-schedules.ts';
import { builder } from '../builder.ts';
import { ScheduleKindEnum } from '../enums/schedule-kind.ts';
import { ScheduleRef, ScheduleRunRef, UserRef, WorkspaceRef } from '../refs.ts';

builder.node(ScheduleRef, {
  description:
    "A message or a task that runs later: once (runAt) or again and again (cron), in a time zone. Each run acts on its creator's behalf: a TASK run is an ordinary new task of theirs, a MESSAGE run their message in their main thread. Every slot runs at most once; slots missed while the server was down run once, on its return.",
  id: { resolve: (s) => s.id },
  loadManyWithoutCache: (ids, ctx) => loadSchedules(ctx.deps, ctx.viewer, ids),
  fields: (t) => ({
    workspace: t.field({ type: WorkspaceRef, description: 'The workspace it belongs to.', resolve: (s, _a, ctx) => ctx.loaders.workspace.load(s.workspaceId).then((w) => w!) }),
    kind: t.field({ type: ScheduleKindEnum, description: 'What it does when it runs: send a message or start a task.', resolve: (s) => s.kind }),
    title: t.exposeString('title', { description: "A short name for it (a TASK run's task gets this title)." }),
    text: t.exposeString('text', { description: "What it sends (MESSAGE) or the task's goal (TASK)." }),
    cron: t.exposeString('cron', { nullable: true, description: 'Five-field cron expression (minute hour day-of-month month day-of-week) in timeZone when it repeats; null when it runs once.' }),
    runAt: t.expose('runAt', { type: 'DateTime', nullable: true, description: 'When it runs, for a schedule that runs once; null when it repeats.' }),
    timeZone: t.exposeString('timeZone', { description: 'The IANA time zone its cron expression is read in (and its times are shown in), e.g. "Europe/Berlin".' }),
    description: t.string({
      description: 'When it runs, in plain words with its zone: "Every Monday at 09:00 (Europe/Berlin)", "Once on Friday, 12 June 2026 at 09:00 (UTC)".',
      resolve: (s) => describeSchedule(s),
    }),
    budgetCapCents: t.exposeInt('budgetCapCents', { nullable: true, description: "Hard budget cap (US cents) of each run's task; null: the workspace's default cap per task. TASK schedules only." }),
    paused: t.exposeBoolean('paused', { description: 'True while paused: nothing runs, and what comes due meanwhile is not made up later.' }),
    nextRunAt: t.expose('nextRunAt', { type: 'DateTime', nullable: true, description: 'When it runs next; null while paused, and once a one-off has run (or its time passed while it was paused).' }),
    lastRunAt: t.expose('lastRunAt', { type: 'DateTime', nullable: true, description: 'When it last ran; null before its first run.' }),
    version: t.exposeInt('version', { description: 'Bumped by every change a person makes (not by runs); updateSchedule takes the version you saw as expectedVersion.' }),
    createdBy: t.field({
      type: UserRef,
      nullable: true,
      description: 'Who made it: its runs act on their behalf.',
      resolve: (s, _a, ctx) => ctx.loaders.user.load(s.createdById),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was made.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed (a run changes nextRunAt and lastRunAt too).' }),
    runs: t.field({
      type: [ScheduleRunRef],
      description: 'Its most recent runs (at most 10), newest first.',
      resolve: (s, _a, ctx) => ctx.loaders.scheduleRuns.load(s.id),
    }),
  }),
});
