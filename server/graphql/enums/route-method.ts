import { builder } from '../builder.ts';

export const RouteMethodEnum = builder.enumType('RouteMethod', {
  description: 'DETERMINISTIC: by code (task panel, card choice, object). MODEL: the router model. RETRIEVAL: the offline router.',
  values: ['DETERMINISTIC', 'MODEL', 'RETRIEVAL'] as const,
});
