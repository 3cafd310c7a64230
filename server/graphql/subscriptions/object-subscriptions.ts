// Live object changes for open editors: replay after the cursor, then live, in feed order.
import { loadObjectVersions } from '../../services/objects/object-versions.ts';
import { subscribeObjectChanges, type ObjectChangeEvent } from '../../services/objects/subscribe-object-changes.ts';
import { builder } from '../builder.ts';
import { withFreshLoaders } from './fresh-loaders.ts';
import { parseGlobalId } from '../ids.ts';
import { ObjectChangeKindEnum, ObjectVersionRef, WorkspaceObjectRef } from '../types/workspace-object.ts';

const ObjectChangeRef = builder.objectRef<ObjectChangeEvent>('ObjectChange');
builder.objectType(ObjectChangeRef, {
  description: 'A version created (or an object deleted) in the workspace. position is gap-free per workspace.',
  fields: (t) => ({
    cursor: t.exposeString('cursor', { description: 'Pass as `after` to resume right after this change.' }),
    position: t.exposeInt('position'),
    kind: t.field({ type: ObjectChangeKindEnum, resolve: (c) => c.kind }),
    objectId: t.globalID({ resolve: (c) => ({ type: 'WorkspaceObject', id: c.objectId }) }),
    versionNumber: t.exposeInt('version'),
    object: t.field({ type: WorkspaceObjectRef, nullable: true, resolve: (c, _a, ctx) => ctx.loaders.object.load(c.objectId) }),
    version: t.field({
      type: ObjectVersionRef,
      nullable: true,
      // From the service, not the per-operation loader: over graphql-ws the context lives as long as
      // the subscription, and the loader's cache would keep every version the stream ever sent.
      resolve: async (c, _a, ctx) => (await loadObjectVersions(ctx.deps, ctx.viewer, [{ objectId: c.objectId, version: c.version }]))[0] ?? null,
    }),
  }),
});

builder.subscriptionFields((t) => ({
  objectChanges: t.field({
    type: ObjectChangeRef,
    description:
      'Object changes of the workspace after the cursor (from ObjectChange.cursor; without one, only new changes), then live ones: in order, no gap, no duplicate.',
    args: { workspaceId: t.arg.id({ required: true }), after: t.arg.string({ required: false }) },
    subscribe: (_r, args, ctx) =>
      subscribeObjectChanges(ctx.deps, ctx.viewer, parseGlobalId(String(args.workspaceId), 'Workspace', 'workspaceId'), args.after ?? null, ctx.signal),
    resolve: (c, _a, ctx) => withFreshLoaders(c, ctx),
  }),
}));
