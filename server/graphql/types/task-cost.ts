import { builder } from '../builder.ts';
import { TaskCostRef } from '../refs.ts';

builder.objectType(TaskCostRef, {
  description: "What a task cost so far: model calls (every call, failed and retried ones included) and generations (ledger charges), in US cents.",
  fields: (t) => ({
    modelCents: t.exposeFloat('modelCents'),
    generationCents: t.exposeFloat('generationCents'),
    totalCents: t.exposeFloat('totalCents'),
    modelCalls: t.exposeInt('modelCalls'),
    inputTokens: t.exposeInt('inputTokens'),
    outputTokens: t.exposeInt('outputTokens'),
    cachedTokens: t.exposeInt('cachedTokens', { description: 'Input tokens the provider served from its prompt cache.' }),
  }),
});
