import type { Viewer } from '../../auth/viewer.ts';
import { builder } from '../builder.ts';
import { ScopeEnum } from './enums.ts';
import { RuntimeInfoRef } from './runtime-info.ts';
import { UserRef } from './user.ts';
import { WorkspaceRef } from './workspace.ts';

export const ViewerRef = builder.objectRef<Viewer>('Viewer');

builder.objectType(ViewerRef, {
  description: 'The authenticated caller.',
  fields: (t) => ({
    user: t.field({ type: UserRef, resolve: (v, _a, ctx) => ctx.loaders.user.load(v.userId).then((u) => u!) }),
    scopes: t.field({ type: [ScopeEnum], resolve: (v) => [...v.scopes] }),
    runtime: t.field({
      type: RuntimeInfoRef,
      description: 'The agent runtime serving this API: model and tools.',
      resolve: (_v, _a, ctx) => ({
        model: ctx.deps.runtime.models.info,
        tools: ctx.deps.runtime.tools.list().map((x) => x.name),
        embeddingModel: ctx.deps.embedder?.model ?? null,
      }),
    }),
    workspaces: t.field({
      type: [WorkspaceRef],
      resolve: async (v, _a, ctx) => {
        const rows = await Promise.all([...v.memberships.keys()].map((id) => ctx.loaders.workspace.load(id)));
        return rows.filter((w) => w !== null);
      },
    }),
  }),
});
