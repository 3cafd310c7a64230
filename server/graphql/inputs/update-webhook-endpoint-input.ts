import { builder } from '../builder.ts';
import { EventVisibilityEnum } from '../enums/event-visibility.ts';
import { TaskEventTypeEnum } from '../enums/task-event-type.ts';

export const UpdateWebhookEndpointInput = builder.inputType('UpdateWebhookEndpointInput', {
  description: 'Changes to a webhook endpoint: the fields given are replaced, the others stay. At least one must be given.',
  fields: (t) => ({
    endpointId: t.id({ required: true, description: 'The endpoint to change.' }),
    url: t.string({ required: false, description: 'A new address: https:// (plain http:// only for 127.0.0.1, ::1 and localhost).' }),
    description: t.string({ required: false, description: 'A new description (at most 500 characters).' }),
    eventTypes: t.field({ type: [TaskEventTypeEnum], required: false, description: 'The event types to receive from now on; empty: every type.' }),
    visibilities: t.field({ type: [EventVisibilityEnum], required: false, description: 'The visibilities to receive from now on; empty: both.' }),
    enabled: t.boolean({
      required: false,
      description: 'false stops new deliveries; true starts again with the events committed from then on (those of the disabled time are not sent: fill them from the endpoint\'s cursor with workspaceEvents).',
    }),
  }),
});
