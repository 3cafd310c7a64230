import type { ModelInfo } from '../../runtime/models/types.ts';
import { builder } from '../builder.ts';

const ModelInfoRef = builder.objectRef<ModelInfo>('ModelInfo');
builder.objectType(ModelInfoRef, {
  description: 'Which model the agent runs on. offline = no model is configured: answers are deterministic placeholders.',
  fields: (t) => ({
    provider: t.exposeString('provider'),
    workerModel: t.exposeString('workerModel'),
    routerModel: t.exposeString('routerModel'),
    offline: t.exposeBoolean('offline'),
    description: t.exposeString('description'),
  }),
});

export const RuntimeInfoRef = builder.objectRef<{ model: ModelInfo; tools: string[]; embeddingModel: string | null }>('RuntimeInfo');
builder.objectType(RuntimeInfoRef, {
  fields: (t) => ({
    model: t.field({ type: ModelInfoRef, resolve: (r) => r.model }),
    embeddingModel: t.exposeString('embeddingModel', { nullable: true, description: "The router's embedding model; null: retrieval by words only." }),
    tools: t.exposeStringList('tools'),
  }),
});
