import { builder } from '../builder.ts';
import { AutonomyLevelEnum } from '../enums/autonomy-level.ts';
import { BudgetCapBehaviorEnum } from '../enums/budget-cap-behavior.ts';
import { WorkspaceSettingsRef } from '../refs.ts';

builder.objectType(WorkspaceSettingsRef, {
  description: 'Three separate settings decide when a paid action needs a person: confirmation-free amounts, the approved plan budget (per task) and the autonomy level.',
  fields: (t) => ({
    perActionFreeCents: t.exposeInt('perActionFreeCents', { description: 'Paid actions up to this price (US cents) need no confirmation.' }),
    dailyFreeCents: t.exposeInt('dailyFreeCents', { description: 'Spending per UTC day (US cents, workspace-wide) that needs no confirmation.' }),
    autonomy: t.field({ type: AutonomyLevelEnum, description: 'The autonomy level.', resolve: (s) => s.autonomy }),
    taskBudgetCapCents: t.exposeInt('taskBudgetCapCents', { nullable: true, description: 'Default cap for a task: no paid action may cross it; what happens then is atBudgetCap.' }),
    atBudgetCap: t.field({ type: BudgetCapBehaviorEnum, description: 'What a task does at its cap: END (ends as BUDGET_EXCEEDED) or PAUSE (waits on a card to raise the cap, then continues).', resolve: (s) => s.atBudgetCap }),
    timeZone: t.exposeString('timeZone', { description: 'IANA time zone (e.g. "Europe/Berlin") for schedules and quiet hours.' }),
    followUpsEnabled: t.exposeBoolean('followUpsEnabled', { description: 'True: the agent may ask to be woken later (follow-ups) and so come back to people by itself. Off by default.' }),
    quietFromMinute: t.exposeInt('quietFromMinute', { nullable: true, description: 'Start of the quiet hours, minutes after midnight in timeZone (null: no quiet hours). A follow-up due inside them waits until they end.' }),
    quietToMinute: t.exposeInt('quietToMinute', { nullable: true, description: 'End of the quiet hours, minutes after midnight in timeZone; may be before quietFromMinute (quiet across midnight).' }),
    trustedDocumentsOnly: t.exposeBoolean('trustedDocumentsOnly', {
      description: "True: this workspace's tokens may run only trusted documents (the web app's persisted operations). False (the default): integrators' tokens may also send documents of their own.",
    }),
    version: t.exposeInt('version', { description: 'Its version: pass it as UpdateWorkspaceSettingsInput.baseVersion.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
  }),
});
