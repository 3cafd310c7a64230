import { builder } from '../builder.ts';

export const ProcessKindEnum = builder.enumType('ProcessKind', {
  description: 'What a process of the product does.',
  values: {
    API: { description: 'Serves the API (and the web app).' },
    WORKER: { description: 'Runs the turns of tasks.' },
  } as const,
});
