// Workspace.webhookEndpoints and Workspace.webhookDeliveries: the workspace's webhooks, for its
// owners (anyone else: FORBIDDEN), newest first, keyset-paged.
import type { ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { encodeKeyset } from '../../services/keyset.ts';
import { listWebhookDeliveries, listWebhookEndpoints } from '../../services/webhooks/list-webhooks.ts';
import { builder } from '../builder.ts';
import { WebhookDeliveryStatusEnum } from '../enums/webhook-delivery-status.ts';
import { parseOptionalGlobalId } from '../ids.ts';
import { cursorConnection } from '../pagination.ts';
import { WebhookDeliveryRef, WebhookEndpointRef, WorkspaceRef } from '../refs.ts';

builder.objectFields(WorkspaceRef, (t) => ({
  webhookEndpoints: t.connection(
    {
      type: WebhookEndpointRef,
      description: "The workspace's webhook endpoints, newest first (owners only).",
      resolve: (w, args, ctx) =>
        cursorConnection({ args, toCursor: encodeKeyset, defaultSize: 20, maxSize: 100 }, (page: ResolveCursorConnectionArgs) =>
          listWebhookEndpoints(ctx.deps, ctx.viewer, w.id, page),
        ),
    },
    { description: 'A page of webhook endpoints.' },
    { description: 'A webhook endpoint and its cursor in the list.' },
  ),
  webhookDeliveries: t.connection(
    {
      type: WebhookDeliveryRef,
      description: "The workspace's webhook deliveries (events and test PINGs), newest first (owners only).",
      args: {
        endpointId: t.arg.id({ required: false, description: 'Only the deliveries to this endpoint (a WebhookEndpoint id).' }),
        statuses: t.arg({ type: [WebhookDeliveryStatusEnum], required: false, description: 'Only deliveries in one of these statuses (DEAD: the dead-letter list).' }),
      },
      resolve: (w, args, ctx) => {
        const endpointId = parseOptionalGlobalId(args.endpointId, 'WebhookEndpoint', 'endpointId');
        return cursorConnection({ args, toCursor: encodeKeyset, defaultSize: 20, maxSize: 100 }, (page: ResolveCursorConnectionArgs) =>
          listWebhookDeliveries(ctx.deps, ctx.viewer, { workspaceId: w.id, endpointId, statuses: args.statuses ?? null }, page),
        );
      },
    },
    { description: 'A page of webhook deliveries.' },
    { description: 'A webhook delivery and its cursor in the list.' },
  ),
}));
