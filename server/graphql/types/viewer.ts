import { describeRuntime } from '../../services/runtime/describe-runtime.ts';
import { builder } from '../builder.ts';
import { ScopeEnum } from '../enums/scope.ts';
import { loadAll } from '../loaders.ts';
import { RuntimeInfoRef, UserRef, ViewerRef, WorkspaceRef } from '../refs.ts';

builder.objectType(ViewerRef, {
  description: 'The authenticated caller.',
  fields: (t) => ({
    user: t.field({ type: UserRef, description: 'The person the credential belongs to.', resolve: (v, _a, ctx) => ctx.loaders.user.load(v.userId).then((u) => u!) }),
    scopes: t.field({ type: [ScopeEnum], description: "The credential's scopes (within the member's role).", resolve: (v) => [...v.scopes] }),
    runtime: t.field({
      type: RuntimeInfoRef,
      description: 'The agent runtime serving this API: model and tools.',
      resolve: (_v, _a, ctx) => describeRuntime(ctx.deps, ctx.viewer),
    }),
    workspaces: t.field({
      type: [WorkspaceRef],
      description: 'The workspaces the credential reaches (one: a credential is bound to one workspace).',
      resolve: (v, _a, ctx) => loadAll(ctx.loaders.workspace, [...v.memberships.keys()]),
    }),
  }),
});
