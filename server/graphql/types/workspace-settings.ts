import { builder } from '../builder.ts';
import { AutonomyLevelEnum } from '../enums/autonomy-level.ts';
import { WorkspaceSettingsRef } from '../refs.ts';

builder.objectType(WorkspaceSettingsRef, {
  description: 'Three separate settings decide when a paid action needs a person: confirmation-free amounts, the approved plan budget (per task) and the autonomy level.',
  fields: (t) => ({
    perActionFreeCents: t.exposeInt('perActionFreeCents', { description: 'Paid actions up to this price (US cents) need no confirmation.' }),
    dailyFreeCents: t.exposeInt('dailyFreeCents', { description: 'Spending per UTC day (US cents, workspace-wide) that needs no confirmation.' }),
    autonomy: t.field({ type: AutonomyLevelEnum, description: 'The autonomy level.', resolve: (s) => s.autonomy }),
    taskBudgetCapCents: t.exposeInt('taskBudgetCapCents', { nullable: true, description: 'Default hard cap for a task; crossing it ends the task as BUDGET_EXCEEDED.' }),
    trustedDocumentsOnly: t.exposeBoolean('trustedDocumentsOnly', {
      description: "True: this workspace's tokens may run only trusted documents (the web app's persisted operations). False (the default): integrators' tokens may also send documents of their own.",
    }),
    version: t.exposeInt('version', { description: 'Its version: pass it as UpdateWorkspaceSettingsInput.baseVersion.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
  }),
});
