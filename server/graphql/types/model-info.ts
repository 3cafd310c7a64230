import { builder } from '../builder.ts';
import { ModelInfoRef } from '../refs.ts';

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
