import type { GenerationJob } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';

const GeneratedFileRef = builder.objectRef<{ mime: string; bytes: number; width?: number; height?: number; path: string }>('GeneratedFile');
builder.objectType(GeneratedFileRef, {
  fields: (t) => ({
    mime: t.exposeString('mime'),
    bytes: t.exposeInt('bytes'),
    width: t.exposeInt('width', { nullable: true }),
    height: t.exposeInt('height', { nullable: true }),
    name: t.string({ resolve: (f) => f.path.split('/').pop() ?? '' }),
  }),
});

export const GenerationJobRef = builder.objectRef<GenerationJob>('GenerationJob');
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
      resolve: (j) => ((j.result as { files?: { mime: string; bytes: number; path: string }[] } | null)?.files ?? []),
    }),
  }),
});

export const LedgerSummaryRef = builder.objectRef<{ heldCents: number; chargedCents: number; releasedCents: number; outstandingCents: number }>('LedgerSummary');
builder.objectType(LedgerSummaryRef, {
  description: 'Money of a task: quotes held, charged on delivery, released on failure; outstanding = still on hold.',
  fields: (t) => ({
    heldCents: t.exposeInt('heldCents'),
    chargedCents: t.exposeInt('chargedCents'),
    releasedCents: t.exposeInt('releasedCents'),
    outstandingCents: t.exposeInt('outstandingCents'),
  }),
});
