import { assetIdForJob } from '../../services/objects/load-objects.ts';
import { builder } from '../builder.ts';
import { GenerationJobStatusEnum } from '../enums/generation-job-status.ts';
import { GenerationKindEnum } from '../enums/generation-kind.ts';
import { publicText } from '../public-ids.ts';
import { GeneratedFileRef, GenerationJobRef, TaskRef, WorkspaceObjectRef, type GeneratedFile } from '../refs.ts';

builder.node(GenerationJobRef, {
  description: 'A media generation at a provider. Status only moves forward.',
  id: { resolve: (j) => j.id },
  loadManyWithoutCache: (ids, ctx) => Promise.all(ids.map((id) => ctx.loaders.job.load(id))),
  fields: (t) => ({
    kind: t.field({ type: GenerationKindEnum, description: 'What it makes.', resolve: (j) => j.kind }),
    status: t.field({ type: GenerationJobStatusEnum, description: 'Where it is at the provider.', resolve: (j) => j.status }),
    progress: t.exposeFloat('progress', { description: 'How far along, 0..1.' }),
    prompt: t.exposeString('prompt', { description: 'What was asked for.' }),
    quoteCents: t.exposeInt('quoteCents', { description: 'Its price as quoted, in US cents (held when ordered, charged on success).' }),
    error: t.string({ nullable: true, description: 'Why it failed, in words; null unless FAILED.', resolve: (j) => (j.error === null ? null : publicText(j.error)) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was ordered.' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When it reached a final status.' }),
    task: t.field({ type: TaskRef, nullable: true, description: 'The task that ordered it.', resolve: (j, _a, ctx) => (j.taskId ? ctx.loaders.task.load(j.taskId) : null) }),
    files: t.field({
      type: [GeneratedFileRef],
      description: 'The files it delivered (empty until it succeeded).',
      resolve: (j) => ((j.result as { files?: Omit<GeneratedFile, 'workspaceId'>[] } | null)?.files ?? []).map((f) => ({ ...f, workspaceId: j.workspaceId })),
    }),
    asset: t.field({
      type: WorkspaceObjectRef,
      nullable: true,
      description: 'The workspace object the result became (once the job succeeded).',
      resolve: (j, _a, ctx) => (j.status === 'SUCCEEDED' ? ctx.loaders.object.load(assetIdForJob(j.id)) : null),
    }),
  }),
});
