import { listRuntimeProcesses } from '../../services/runtime/list-processes.ts';
import { builder } from '../builder.ts';
import { ModelInfoRef, RuntimeInfoRef, RuntimeProcessRef } from '../refs.ts';

builder.objectType(RuntimeInfoRef, {
  fields: (t) => ({
    model: t.field({ type: ModelInfoRef, resolve: (r) => r.model }),
    embeddingModel: t.exposeString('embeddingModel', { nullable: true, description: "The router's embedding model; null: retrieval by words only." }),
    tools: t.exposeStringList('tools'),
    processes: t.field({
      type: [RuntimeProcessRef],
      description: 'Processes seen in the last hour with their heartbeats (owners only; FORBIDDEN otherwise).',
      resolve: (_r, _a, ctx) => listRuntimeProcesses(ctx.deps, ctx.viewer),
    }),
  }),
});
