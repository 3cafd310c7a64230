import { loadEvidence } from '../../services/memory/browse-memories.ts';
import { builder } from '../builder.ts';
import { MemoryEvidenceStatusEnum } from '../enums/memory-evidence-status.ts';
import { MemorySourceKindEnum } from '../enums/memory-source-kind.ts';
import { MemoryEvidenceRef, MessageRef, TaskRef } from '../refs.ts';

const EXCERPT = 200;

builder.node(MemoryEvidenceRef, {
  description: 'A source memories rest on. Only its author sees its text; a revoked source keeps no text.',
  id: { resolve: (e) => e.id },
  loadManyWithoutCache: (ids, ctx) => loadEvidence(ctx.deps, ctx.viewer, ids),
  fields: (t) => ({
    kind: t.field({ type: MemorySourceKindEnum, description: 'What the source is.', resolve: (e) => e.kind }),
    status: t.field({ type: MemoryEvidenceStatusEnum, description: 'Whether it still counts.', resolve: (e) => e.status }),
    excerpt: t.string({
      nullable: true,
      description: `The first ${EXCERPT} characters of the source; null when revoked or written by someone else.`,
      resolve: (e, _a, ctx) => (e.status === 'ACTIVE' && e.userId === ctx.viewer.userId ? e.text.slice(0, EXCERPT) : null),
    }),
    occurredAt: t.expose('occurredAt', { type: 'DateTime', description: 'When it was said (or observed).' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true, description: 'When it was forgotten.' }),
    message: t.field({
      type: MessageRef,
      nullable: true,
      description: 'The message it came from (in your own thread only).',
      resolve: (e, _a, ctx) => (e.messageId ? ctx.loaders.message.load(e.messageId) : null),
    }),
    task: t.field({ type: TaskRef, nullable: true, description: 'The task it was written in.', resolve: (e, _a, ctx) => (e.taskId ? ctx.loaders.task.load(e.taskId) : null) }),
  }),
});
