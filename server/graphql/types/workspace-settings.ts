import { builder } from '../builder.ts';
import { AutonomyLevelEnum } from '../enums/autonomy-level.ts';
import { WorkspaceSettingsRef } from '../refs.ts';

builder.objectType(WorkspaceSettingsRef, {
  description: 'Three separate settings decide when a paid action needs a person: confirmation-free amounts, the approved plan budget (per task) and the autonomy level.',
  fields: (t) => ({
    perActionFreeCents: t.exposeInt('perActionFreeCents'),
    dailyFreeCents: t.exposeInt('dailyFreeCents'),
    autonomy: t.field({ type: AutonomyLevelEnum, resolve: (s) => s.autonomy }),
    taskBudgetCapCents: t.exposeInt('taskBudgetCapCents', { nullable: true, description: 'Default hard cap for a task; crossing it ends the task as BUDGET_EXCEEDED.' }),
    version: t.exposeInt('version'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});
