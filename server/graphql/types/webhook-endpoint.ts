import { encodeWorkspaceCursorOf, loadWebhookEndpoints } from '../../services/webhooks/list-webhooks.ts';
import { builder } from '../builder.ts';
import { EventVisibilityEnum } from '../enums/event-visibility.ts';
import { TaskEventTypeEnum } from '../enums/task-event-type.ts';
import { UserRef, WebhookEndpointRef, WebhookSigningSecretRef, WorkspaceRef } from '../refs.ts';
import type { EventType, EventVisibility } from '../../domain/event-catalog.ts';

builder.node(WebhookEndpointRef, {
  description:
    "An integrator's HTTPS endpoint that receives the workspace's events as signed deliveries (Standard Webhooks: webhook-id, webhook-timestamp and webhook-signature headers). Only workspace owners see and manage endpoints.",
  id: { resolve: (e) => e.id },
  loadManyWithoutCache: (ids, ctx) => loadWebhookEndpoints(ctx.deps, ctx.viewer, ids),
  fields: (t) => ({
    workspace: t.field({
      type: WorkspaceRef,
      description: 'The workspace whose events it receives.',
      resolve: (e, _a, ctx) => ctx.loaders.workspace.load(e.workspaceId).then((w) => w!),
    }),
    url: t.exposeString('url', { description: 'Where deliveries are POSTed: https:// (http:// only for 127.0.0.1, ::1 and localhost).' }),
    description: t.exposeString('description', { description: 'What the endpoint is for, as its owner wrote it (may be empty).' }),
    enabled: t.exposeBoolean('enabled', {
      description:
        'Whether new events are delivered. While disabled no deliveries are made (and pending ones are dead-lettered when due); enabling starts again from the events after that moment.',
    }),
    eventTypes: t.field({
      type: [TaskEventTypeEnum],
      description: 'The event types it receives; empty: every type.',
      resolve: (e) => e.eventTypes as EventType[],
    }),
    visibilities: t.field({
      type: [EventVisibilityEnum],
      description: 'The visibilities it receives; empty: both. Combined with eventTypes: a type is delivered when it is listed (or none are) and has one of these visibilities (or none are listed).',
      resolve: (e) => e.visibilities as EventVisibility[],
    }),
    secrets: t.field({
      type: [WebhookSigningSecretRef],
      description:
        'The secrets that sign deliveries now, newest (current) first: during a rotation the previous one signs too, until its expiresAt. Only hints: a secret is returned once, by the mutation that makes it.',
      resolve: (e) => e.secrets,
    }),
    cursor: t.string({
      description:
        "The workspace cursor up to which events have been turned into deliveries for this endpoint (the same kind of cursor as TaskEvent.cursor; workspaceEvents(after:) resumes after it).",
      resolve: (e) => encodeWorkspaceCursorOf(e.workspaceId, e.eventCursor),
    }),
    createdBy: t.field({
      type: UserRef,
      nullable: true,
      description: 'The person or integration whose credential created it.',
      resolve: (e, _a, ctx) => (e.createdById ? ctx.loaders.user.load(e.createdById) : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When its settings or secrets last changed.' }),
  }),
});
