import { builder } from '../builder.ts';
import { checklistItemKind, ChecklistItemKindEnum } from '../enums/checklist-item-kind.ts';
import { ChecklistItemStatusEnum } from '../enums/checklist-item-status.ts';
import { globalId } from '../ids.ts';
import { publicText } from '../public-ids.ts';
import { ChecklistItemRef, WorkspaceObjectRef } from '../refs.ts';
import { assetIdForJob } from '../../services/objects/load-objects.ts';

const REF = /^(job|object):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * A stored result link (`job:<uuid>`, `object:<uuid>`) as the global id of what it names; null for a
 * link that names nothing readable (one withheld after a forgetting reads as a marker, not a link).
 */
function artifactId(ref: string): string | null {
  const m = REF.exec(ref);
  if (!m) return null;
  return globalId(m[1]!.toLowerCase() === 'job' ? 'GenerationJob' : 'WorkspaceObject', m[2]!.toLowerCase());
}

/** The object a result link names: the object itself, or the asset a job's result became. */
function objectKeyOf(ref: string): string | null {
  const m = REF.exec(ref);
  if (!m) return null;
  return m[1]!.toLowerCase() === 'job' ? assetIdForJob(m[2]!.toLowerCase()) : m[2]!.toLowerCase();
}

builder.objectType(ChecklistItemRef, {
  description: 'One step of the execution checklist.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The step\'s key within its checklist (e.g. "poster-1"): pass it back as ChecklistItemInput.id to keep the step.' }),
    title: t.exposeString('title', { description: 'What the step is, in a few words.' }),
    kind: t.field({ type: ChecklistItemKindEnum, description: 'What it produces.', resolve: (i) => checklistItemKind(i.kind) }),
    count: t.exposeInt('count', { description: 'How many results the step needs.' }),
    status: t.field({ type: ChecklistItemStatusEnum, description: 'Where the step is.', resolve: (i) => i.status }),
    artifacts: t.idList({
      description:
        'The results linked to the step, by global id: a WorkspaceObject (a result), or a GenerationJob (one still being made). Links withheld after a forgetting are left out (evidence says so).',
      resolve: (i) => i.artifacts.map(artifactId).filter((id): id is string => id !== null),
    }),
    objects: t.field({
      type: [WorkspaceObjectRef],
      description: 'The results linked to the step, as objects (a job counts once its result exists).',
      resolve: async (i, _a, ctx) => {
        const keys = [...new Set(i.artifacts.map(objectKeyOf).filter((k): k is string => k !== null))];
        return (await Promise.all(keys.map((k) => ctx.loaders.object.load(k)))).filter((o) => o !== null);
      },
    }),
    evidence: t.string({
      nullable: true,
      description: 'Why the step counts as done, skipped or blocked, in words (references carry global ids).',
      resolve: (i) => (i.evidence === null ? null : publicText(i.evidence)),
    }),
    needsApproval: t.exposeBoolean('needsApproval', { description: 'True when a person decides at this step (a pick, a confirmation).' }),
    estimateCents: t.exposeInt('estimateCents', { description: 'What the step is expected to cost, in US cents.' }),
    round: t.exposeInt('round', { description: 'How often the step was re-opened (a change of direction).' }),
    ordered: t.exposeInt('ordered', { description: 'Results ordered in this round and not failed.' }),
    after: t.stringList({ description: 'The steps (ids in this checklist) whose results this one uses: it starts only when they are finished, and a change to one of them makes it stale.', resolve: (i) => i.after ?? [] }),
  }),
});
