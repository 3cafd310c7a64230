import { encodeGlobalID } from '@pothos/plugin-relay';
import { encodeWorkspaceCursorOf, loadWebhookDeliveries } from '../../services/webhooks/list-webhooks.ts';
import { builder } from '../builder.ts';
import { WebhookDeliveryKindEnum } from '../enums/webhook-delivery-kind.ts';
import { WebhookDeliveryStatusEnum } from '../enums/webhook-delivery-status.ts';
import { TaskRef, WebhookDeliveryAttemptRef, WebhookDeliveryRef, WebhookEndpointRef } from '../refs.ts';

builder.node(WebhookDeliveryRef, {
  description:
    'One message to one webhook endpoint: an event of the log, or a test PING, with its attempts. Attempts are retried with exponential backoff until the receiver answers 2xx; after the last one the delivery is DEAD. Deliveries to one endpoint may arrive out of order: each carries its event\'s seq and workspace cursor.',
  id: { resolve: (d) => d.id },
  loadManyWithoutCache: (ids, ctx) => loadWebhookDeliveries(ctx.deps, ctx.viewer, ids),
  fields: (t) => ({
    endpoint: t.field({ type: WebhookEndpointRef, description: 'The endpoint it goes to.', resolve: (d) => d.endpoint }),
    webhookId: t.exposeString('messageId', {
      description: 'The webhook-id header: the same for every attempt and every redelivery of this delivery, so a receiver can drop one it has already handled.',
    }),
    kind: t.field({ type: WebhookDeliveryKindEnum, description: 'An event, or a test PING.', resolve: (d) => d.kind }),
    eventType: t.exposeString('eventType', { description: "The body's type: the event's type (TaskEvent.type), or PING." }),
    eventId: t.id({
      nullable: true,
      description: 'The id of the event it carries (TaskEvent.id); null for a PING.',
      resolve: (d) => (d.taskId && d.eventSeq != null ? encodeGlobalID('TaskEvent', `${d.taskId}:${d.eventSeq}`) : null),
    }),
    task: t.field({
      type: TaskRef,
      nullable: true,
      description: "The task whose event it carries; null for a PING (or a task since deleted).",
      resolve: (d, _a, ctx) => (d.taskId ? ctx.loaders.task.load(d.taskId) : null),
    }),
    eventSeq: t.exposeInt('eventSeq', { nullable: true, description: "The event's seq in its task's log; null for a PING." }),
    eventCursor: t.string({
      nullable: true,
      description: "The event's workspace cursor (TaskEvent.cursor): workspaceEvents(after:) resumes right after it. Null for a PING.",
      resolve: (d) => (d.eventPosition == null ? null : encodeWorkspaceCursorOf(d.workspaceId, d.eventPosition)),
    }),
    occurredAt: t.expose('occurredAt', { type: 'DateTime', description: 'When the event happened (the PING: when it was asked for); the body\'s timestamp.' }),
    status: t.field({ type: WebhookDeliveryStatusEnum, description: 'Pending, delivered or dead-lettered.', resolve: (d) => d.status }),
    series: t.exposeInt('series', { description: '1 for the first series of attempts; each redelivery starts the next one.' }),
    attemptCount: t.exposeInt('attempts', { description: 'Attempts made in the current series.' }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true, description: 'When the next attempt is due, while PENDING.' }),
    lastAttemptAt: t.expose('lastAttemptAt', { type: 'DateTime', nullable: true, description: 'When the latest attempt started.' }),
    lastStatusCode: t.exposeInt('lastStatusCode', { nullable: true, description: "The receiver's HTTP status at the latest attempt; null when none came (timeout, refused connection)." }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'Why the latest attempt failed, as a sentence; null when it succeeded.' }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true, description: 'When a receiver first answered 2xx.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the delivery was made (after the event was committed).' }),
    attempts: t.field({
      type: [WebhookDeliveryAttemptRef],
      description: 'Its attempts, newest first (at most the latest 100).',
      resolve: (d) => d.attemptLog,
    }),
  }),
});
