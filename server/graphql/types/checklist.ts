import type { Checklist, ChecklistItem } from '../../domain/checklist.ts';
import { readChecklist } from '../../store/checklist/write-checklist.ts';
import { builder } from '../builder.ts';
import { TaskRef } from './task.ts';

export const ChecklistItemStatusEnum = builder.enumType('ChecklistItemStatus', { values: ['TODO', 'IN_PROGRESS', 'DONE', 'SKIPPED', 'BLOCKED'] as const });

const ChecklistItemRef = builder.objectRef<ChecklistItem>('ChecklistItem');
builder.objectType(ChecklistItemRef, {
  description: 'One step of the execution checklist.',
  fields: (t) => ({
    id: t.exposeString('id'),
    title: t.exposeString('title'),
    kind: t.exposeString('kind', { description: 'IMAGE, VIDEO, AUDIO, MODEL_3D, DOCUMENT, CHECKPOINT or OTHER' }),
    count: t.exposeInt('count', { description: 'How many results the step needs.' }),
    status: t.field({ type: ChecklistItemStatusEnum, resolve: (i) => i.status }),
    artifacts: t.exposeStringList('artifacts', { description: 'Linked results: job:<id> or object:<id>.' }),
    evidence: t.exposeString('evidence', { nullable: true, description: 'Why the step counts as done, skipped or blocked.' }),
    needsApproval: t.exposeBoolean('needsApproval'),
    estimateCents: t.exposeInt('estimateCents'),
    round: t.exposeInt('round', { description: 'How often the step was re-opened (a change of direction).' }),
    ordered: t.exposeInt('ordered', { description: 'Results ordered in this round and not failed.' }),
  }),
});

export const ChecklistRef = builder.objectRef<Checklist>('Checklist');
builder.objectType(ChecklistRef, {
  description: "The task's execution checklist: structured, versioned state, not prose.",
  fields: (t) => ({
    version: t.exposeInt('version'),
    items: t.field({ type: [ChecklistItemRef], resolve: (c) => c.items }),
    done: t.int({ resolve: (c) => c.items.filter((i) => i.status === 'DONE' || i.status === 'SKIPPED').length }),
    total: t.int({ resolve: (c) => c.items.length }),
  }),
});

builder.objectFields(TaskRef, (t) => ({
  checklist: t.field({ type: ChecklistRef, nullable: true, resolve: (task, _a, ctx) => (task.checklistVersion ? readChecklist(ctx.deps.prisma, task.id) : null) }),
  planApprovedVersion: t.exposeInt('planApprovedVersion', { nullable: true, description: 'The checklist version whose plan a person approved.' }),
}));
