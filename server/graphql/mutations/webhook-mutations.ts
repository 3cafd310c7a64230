// Webhook mutations (workspace owners only, auth/mutation-policy.ts): thin resolvers over
// server/services/webhooks. A refused input is BAD_USER_INPUT with one sentence, and nothing is
// written.
import { createWebhookEndpoint, deleteWebhookEndpoint, rotateWebhookSecret, updateWebhookEndpoint } from '../../services/webhooks/manage-endpoints.ts';
import { redeliverWebhook, sendTestWebhook } from '../../services/webhooks/redeliver.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { CreateWebhookEndpointInput } from '../inputs/create-webhook-endpoint-input.ts';
import { RedeliverWebhookInput } from '../inputs/redeliver-webhook-input.ts';
import { RotateWebhookSecretInput } from '../inputs/rotate-webhook-secret-input.ts';
import { UpdateWebhookEndpointInput } from '../inputs/update-webhook-endpoint-input.ts';
import { DeleteWebhookEndpointInput } from '../inputs/delete-webhook-endpoint-input.ts';
import { SendTestWebhookInput } from '../inputs/send-test-webhook-input.ts';
import { DeleteWebhookEndpointPayload } from '../payloads/delete-webhook-endpoint-payload.ts';
import { WebhookDeliveryPayload } from '../payloads/webhook-delivery-payload.ts';
import { WebhookEndpointPayload } from '../payloads/webhook-endpoint-payload.ts';
import { WebhookEndpointSecretPayload } from '../payloads/webhook-endpoint-secret-payload.ts';

const endpointId = (id: unknown) => parseGlobalId(String(id), 'WebhookEndpoint', 'input.endpointId');
/** An optional input field: null and absent both mean "not given". */
const given = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    type: WebhookEndpointSecretPayload,
    description: 'Register an endpoint for the workspace\'s events (owners only). Returns its signing secret, once.',
    args: { input: t.arg({ type: CreateWebhookEndpointInput, required: true, description: 'The endpoint.' }) },
    resolve: (_r, { input }, ctx) =>
      createWebhookEndpoint(ctx.deps, ctx.viewer, {
        workspaceId: parseGlobalId(String(input.workspaceId), 'Workspace', 'input.workspaceId'),
        url: input.url,
        description: given(input.description),
        eventTypes: given(input.eventTypes),
        visibilities: given(input.visibilities),
        enabled: given(input.enabled),
      }),
  }),
  updateWebhookEndpoint: t.field({
    type: WebhookEndpointPayload,
    description: "Change an endpoint's address, description, filters or enabled flag (owners only).",
    args: { input: t.arg({ type: UpdateWebhookEndpointInput, required: true, description: 'What to change.' }) },
    resolve: async (_r, { input }, ctx) => ({
      endpoint: await updateWebhookEndpoint(ctx.deps, ctx.viewer, {
        endpointId: endpointId(input.endpointId),
        url: given(input.url),
        description: given(input.description),
        eventTypes: given(input.eventTypes),
        visibilities: given(input.visibilities),
        enabled: given(input.enabled),
      }),
    }),
  }),
  deleteWebhookEndpoint: t.field({
    type: DeleteWebhookEndpointPayload,
    description: 'Delete an endpoint with its secrets and deliveries (owners only); attempts not yet made are not made.',
    args: { input: t.arg({ type: DeleteWebhookEndpointInput, required: true, description: 'The endpoint.' }) },
    resolve: async (_r, { input }, ctx) => ({ endpointId: await deleteWebhookEndpoint(ctx.deps, ctx.viewer, { endpointId: endpointId(input.endpointId) }) }),
  }),
  rotateWebhookSecret: t.field({
    type: WebhookEndpointSecretPayload,
    description:
      "Give an endpoint a new signing secret (owners only), returned once. The previous one keeps signing for the grace period: until then every delivery carries a signature by each, so receivers can switch without losing a delivery.",
    args: { input: t.arg({ type: RotateWebhookSecretInput, required: true, description: 'The endpoint and the grace period.' }) },
    resolve: (_r, { input }, ctx) =>
      rotateWebhookSecret(ctx.deps, ctx.viewer, { endpointId: endpointId(input.endpointId), graceSeconds: given(input.graceSeconds) }),
  }),
  redeliverWebhook: t.field({
    type: WebhookDeliveryPayload,
    description: 'Send a delivery again (owners only): a new series of attempts with the same webhook-id, for a dead-lettered delivery once the receiver is fixed, or one the receiver lost.',
    args: { input: t.arg({ type: RedeliverWebhookInput, required: true, description: 'The delivery.' }) },
    resolve: async (_r, { input }, ctx) => ({
      delivery: await redeliverWebhook(ctx.deps, ctx.viewer, { deliveryId: parseGlobalId(String(input.deliveryId), 'WebhookDelivery', 'input.deliveryId') }),
    }),
  }),
  sendTestWebhook: t.field({
    type: WebhookDeliveryPayload,
    description: 'Send a signed test delivery (type PING) to an endpoint (owners only), to check the receiver and its secret.',
    args: { input: t.arg({ type: SendTestWebhookInput, required: true, description: 'The endpoint.' }) },
    resolve: async (_r, { input }, ctx) => ({ delivery: await sendTestWebhook(ctx.deps, ctx.viewer, { endpointId: endpointId(input.endpointId) }) }),
  }),
}));
