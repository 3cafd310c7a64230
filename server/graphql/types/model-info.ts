import { builder } from '../builder.ts';
import { ModelInfoRef } from '../refs.ts';

builder.objectType(ModelInfoRef, {
  description: 'Which model the agent runs on. offline = no model is configured: answers are deterministic placeholders.',
  fields: (t) => ({
    provider: t.exposeString('provider', { description: 'Who serves the models (e.g. openai, offline).' }),
    workerModel: t.exposeString('workerModel', { description: "The larger model: a task's planning and uncertain steps." }),
    routerModel: t.exposeString('routerModel', { description: 'The small model: routing, extraction, summaries and routine steps.' }),
    offline: t.exposeBoolean('offline', { description: 'True when no model is configured and the deterministic offline model answers.' }),
    description: t.exposeString('description', { description: 'All of this in one sentence.' }),
  }),
});
