import { listRuntimeProcesses } from '../../services/runtime/list-processes.ts';
import { builder } from '../builder.ts';
import { ModelInfoRef, RuntimeInfoRef, RuntimeProcessRef } from '../refs.ts';

builder.objectType(RuntimeInfoRef, {
  description: 'The agent runtime serving this API.',
  fields: (t) => ({
    model: t.field({ type: ModelInfoRef, description: 'The models the agent runs on.', resolve: (r) => r.model }),
    embeddingModel: t.exposeString('embeddingModel', { nullable: true, description: "The router's embedding model; null: retrieval by words only." }),
    tools: t.exposeStringList('tools', { description: 'The tools the agent can call (names).' }),
    processes: t.field({
      type: [RuntimeProcessRef],
      description: 'Processes seen in the last hour with their heartbeats (owners only; FORBIDDEN otherwise).',
      resolve: (_r, _a, ctx) => listRuntimeProcesses(ctx.deps, ctx.viewer),
    }),
  }),
});
