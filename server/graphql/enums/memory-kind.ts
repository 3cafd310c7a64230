import { builder } from '../builder.ts';

export const MemoryKindEnum = builder.enumType('MemoryKind', {
  description: 'What sort of thing is remembered.',
  values: {
    PREFERENCE: { description: 'How someone likes things ("I prefer muted palettes").' },
    FACT: { description: 'Something true about a person or the studio (where they live, their name).' },
    BRAND_RULE: { description: 'A rule of the brand (its colour, its typeface).' },
    WORKFLOW_HABIT: { description: 'How someone works (starts, stops, "from now on").' },
  } as const,
});
