import { builder } from '../builder.ts';
import { ChecklistItemStatusEnum } from '../enums/checklist-item-status.ts';
import { ChecklistItemRef } from '../refs.ts';

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
