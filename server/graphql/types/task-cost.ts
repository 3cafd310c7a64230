import { builder } from '../builder.ts';
import { TaskCostRef } from '../refs.ts';

builder.objectType(TaskCostRef, {
  description: "What a task cost so far: model calls (every call, failed and retried ones included) and generations (ledger charges), in US cents.",
  fields: (t) => ({
    modelCents: t.exposeFloat('modelCents', { description: 'Model calls, in US cents.' }),
    generationCents: t.exposeFloat('generationCents', { description: 'Generations charged, in US cents.' }),
    totalCents: t.exposeFloat('totalCents', { description: 'Both, in US cents.' }),
    modelCalls: t.exposeInt('modelCalls', { description: 'Model calls made (failed and retried ones included).' }),
    inputTokens: t.exposeInt('inputTokens', { description: 'Input tokens sent.' }),
    outputTokens: t.exposeInt('outputTokens', { description: 'Output tokens received.' }),
    cachedTokens: t.exposeInt('cachedTokens', { description: 'Input tokens the provider served from its prompt cache.' }),
  }),
});
