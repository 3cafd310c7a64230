import { EVENT_CATALOG, type EventVisibility } from '../../domain/event-catalog.ts';
import { builder } from '../builder.ts';

// Who cares about an event type (domain/event-catalog.ts): the filters of webhooks (and of event
// queries) select by it.
const DESCRIPTIONS: Record<EventVisibility, string> = {
  MILESTONE: 'What a person following the work cares about: a task created, delivered or answered, a card, a result.',
  DETAIL: "The runtime's internals: turns, steps, model and tool calls, progress.",
};

export const EventVisibilityEnum = builder.enumType('EventVisibility', {
  description: `Who cares about an event type. MILESTONE types: ${Object.entries(EVENT_CATALOG)
    .filter(([, v]) => v.visibility === 'MILESTONE')
    .map(([t]) => t)
    .join(', ')}; every other type is DETAIL.`,
  values: Object.fromEntries((Object.keys(DESCRIPTIONS) as EventVisibility[]).map((v) => [v, { description: DESCRIPTIONS[v] }])) as Record<
    EventVisibility,
    { description: string }
  >,
});
