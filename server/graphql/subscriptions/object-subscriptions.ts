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
    position: t.exposeInt('position', { description: 'Gap-free per workspace: 1, 2, 3, …' }),
    kind: t.field({ type: ObjectChangeKindEnum, description: 'What happened.', resolve: (c) => c.kind }),
    objectId: t.globalID({ description: 'The object (WorkspaceObject.id).', resolve: (c) => ({ type: 'WorkspaceObject', id: c.objectId }) }),
    versionNumber: t.exposeInt('version', { description: 'The version this change made (for DELETED: the last one).' }),
    object: t.field({ type: WorkspaceObjectRef, nullable: true, description: 'The object as it is now; null when the caller may no longer see it.', resolve: (c, _a, ctx) => ctx.loaders.object.load(c.objectId) }),
    version: t.field({
      type: ObjectVersionRef,
      nullable: true,
      description: 'The version this change made.',
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
    args: {
      workspaceId: t.arg.id({ required: true, description: 'The workspace (Workspace.id).' }),
      after: t.arg.string({ required: false, description: 'A cursor this API handed out (ObjectChange.cursor); without one, only new changes.' }),
    },
    subscribe: (_r, args, ctx) =>
      subscribeObjectChanges(ctx.deps, ctx.viewer, parseGlobalId(String(args.workspaceId), 'Workspace', 'workspaceId'), args.after ?? null, ctx.signal),
    resolve: (c, _a, ctx) => withFreshLoaders(c, ctx),
  }),
}));
