import { EVENT_CATALOG, EVENT_TYPES, type EventType } from '../../domain/event-catalog.ts';
import { builder } from '../builder.ts';

// One value per catalogued event type (domain/event-catalog.ts); each has an object type of its own
// implementing TaskEvent (types/task-event-kinds.ts).
export const TaskEventTypeEnum = builder.enumType('TaskEventType', {
  description: 'What kind of event an entry of a task\'s log is. Each value has an object type of its own (TASK_CREATED: TaskCreatedEvent, …).',
  values: Object.fromEntries(
    EVENT_TYPES.map((t) => [t, { description: `${EVENT_CATALOG[t].about} (${EVENT_CATALOG[t].visibility === 'MILESTONE' ? 'milestone' : 'detail'})` }]),
  ) as Record<EventType, { description: string }>,
});
