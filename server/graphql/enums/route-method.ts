import { builder } from '../builder.ts';

export const RouteMethodEnum = builder.enumType('RouteMethod', {
  description: 'How a message was routed.',
  values: {
    DETERMINISTIC: { description: 'By code: sent from a task panel, an answered question, or an object one task uses.' },
    MODEL: { description: 'By the router model.' },
    RETRIEVAL: { description: 'By the offline router (words and retrieval, no model).' },
  } as const,
});
