import { getObjectNow } from '../../services/objects/load-objects.ts';
import type { createObject } from '../../services/objects/write-object.ts';
import { builder } from '../builder.ts';
import { publicText } from '../public-ids.ts';
import { ObjectVersionRef, WorkspaceObjectRef } from '../refs.ts';

/** What every object write returns (the version it made, or for a replayed key, made before). */
export type WriteResult = Awaited<ReturnType<typeof createObject>>;

export const ObjectWritePayload = builder.objectRef<{ r: WriteResult }>('ObjectWritePayload').implement({
  description: 'What an object write did.',
  fields: (t) => ({
    object: t.field({
      type: WorkspaceObjectRef,
      description: 'The object as it is now.',
      resolve: (p, _a, ctx) => getObjectNow(ctx.deps, ctx.viewer, p.r.object.id),
    }),
    version: t.field({
      type: ObjectVersionRef,
      description: 'The version this write produced (or, for a replayed idempotency key, produced earlier).',
      resolve: async (p, _a, ctx) => (await ctx.loaders.objectVersion.load({ objectId: p.r.object.id, version: p.r.version }))!,
    }),
    replayed: t.boolean({ description: 'True when this idempotency key was used before: nothing new was written, the earlier result is returned.', resolve: (p) => p.r.replayed }),
    summary: t.string({ description: 'What changed, in words (as the version records it).', resolve: (p) => publicText(p.r.summary) }),
    changedByOthers: t.stringList({
      description: 'Flow edits: nodes others changed since your base version (kept; your edit applied on top).',
      resolve: (p) => p.r.changedByOthers ?? [],
    }),
  }),
});
