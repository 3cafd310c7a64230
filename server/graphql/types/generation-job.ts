import { assetIdForJob } from '../../services/objects/load-objects.ts';
import { builder } from '../builder.ts';
import { GeneratedFileRef, GenerationJobRef, WorkspaceObjectRef, type GeneratedFile } from '../refs.ts';

builder.objectType(GenerationJobRef, {
  description: 'A media generation at a provider. Status only moves forward.',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.exposeString('kind'),
    status: t.exposeString('status', { description: 'SUBMITTING, QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED or UNKNOWN' }),
    progress: t.exposeFloat('progress'),
    prompt: t.exposeString('prompt'),
    quoteCents: t.exposeInt('quoteCents'),
    error: t.exposeString('error', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    files: t.field({
      type: [GeneratedFileRef],
      resolve: (j) => ((j.result as { files?: GeneratedFile[] } | null)?.files ?? []),
    }),
    asset: t.field({
      type: WorkspaceObjectRef,
      nullable: true,
      description: 'The workspace object the result became (once the job succeeded).',
      resolve: (j, _a, ctx) => (j.status === 'SUCCEEDED' ? ctx.loaders.object.load(assetIdForJob(j.id)) : null),
    }),
  }),
});
