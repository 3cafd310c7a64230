import { builder } from '../builder.ts';
import { EventVisibilityEnum } from '../enums/event-visibility.ts';
import { TaskEventTypeEnum } from '../enums/task-event-type.ts';

export const CreateWebhookEndpointInput = builder.inputType('CreateWebhookEndpointInput', {
  description: 'A new webhook endpoint. It receives the events committed after it is created.',
  fields: (t) => ({
    workspaceId: t.id({ required: true, description: 'The workspace whose events it receives.' }),
    url: t.string({ required: true, description: 'Where to POST deliveries: https:// (plain http:// only for 127.0.0.1, ::1 and localhost); at most 2,048 characters.' }),
    description: t.string({ required: false, description: 'What it is for (at most 500 characters).' }),
    eventTypes: t.field({ type: [TaskEventTypeEnum], required: false, description: 'The event types to receive; empty or absent: every type.' }),
    visibilities: t.field({ type: [EventVisibilityEnum], required: false, description: 'The visibilities to receive; empty or absent: both.' }),
    enabled: t.boolean({ required: false, description: 'Whether it receives events from now on (default true).' }),
  }),
});
