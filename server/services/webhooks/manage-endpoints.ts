// Creating, changing, deleting an endpoint and rotating its secret (owners only). A secret is
// returned once, by the call that makes it; afterwards only its hint is readable.
import type { Viewer } from '../../auth/viewer.ts';
import { sequenceEvents } from '../../channel/sequencer.ts';
import type { EventVisibility } from '../../domain/event-catalog.ts';
import { badInput, notFound } from '../../errors.ts';
import {
  deleteEndpointRow,
  insertEndpoint,
  lockEndpoint,
  rotateSecretRows,
  updateEndpointRow,
  type EndpointFields,
  type EndpointRow,
} from '../../store/webhooks/endpoints.ts';
import { recordRegisteredHost } from '../../store/egress/hosts.ts';
import type { Deps } from '../deps.ts';
import { requireWebhookAdmin } from './access.ts';
import {
  checkSelectsSomething,
  CreateEndpointInput,
  normalizeTypes,
  normalizeVisibilities,
  parseWebhookInput,
  RotateSecretInput,
  UpdateEndpointInput,
} from './endpoint-input.ts';
import { webhookSettings } from './settings.ts';
import { newSecret, secretHint } from './signing.ts';

export type EndpointWithSecret = { endpoint: EndpointRow; secret: string };

export async function createWebhookEndpoint(deps: Deps, viewer: Viewer, raw: unknown): Promise<EndpointWithSecret> {
  const input = parseWebhookInput(CreateEndpointInput, raw);
  requireWebhookAdmin(viewer, input.workspaceId);
  const eventTypes = normalizeTypes(input.eventTypes);
  const visibilities = normalizeVisibilities(input.visibilities);
  checkSelectsSomething(eventTypes, visibilities);
  // The endpoint starts at the head: sequence what is committed so far, so the head is current
  // (never inside the transaction: the sequencer takes the workspace's row lock).
  await sequenceEvents(deps.prisma, [input.workspaceId]);
  const secret = newSecret();
  const endpoint = await deps.prisma.$transaction(async (tx) => {
    const created = await insertEndpoint(tx, {
      workspaceId: input.workspaceId,
      url: input.url,
      description: input.description,
      enabled: input.enabled,
      eventTypes,
      visibilities,
      createdById: viewer.userId,
      secret,
      hint: secretHint(secret),
    });
    // The receiver's host goes on the workspace's allowed hosts: the owner sees it there and can revoke it.
    await recordRegisteredHost(tx, { workspaceId: input.workspaceId, url: input.url, source: 'WEBHOOK', note: `webhook ${input.description || input.url}`, createdById: viewer.userId });
    return created;
  });
  return { endpoint, secret };
}

/** The endpoint's workspace, for authorising before anything else is read (NOT_FOUND for ids the caller cannot see). */
async function workspaceOfEndpoint(deps: Deps, viewer: Viewer, endpointId: string): Promise<string> {
  const e = await deps.prisma.webhookEndpoint.findFirst({ where: { id: endpointId, workspaceId: { in: [...viewer.memberships.keys()] } }, select: { workspaceId: true } });
  if (!e) throw notFound('Webhook endpoint');
  return e.workspaceId;
}

export async function updateWebhookEndpoint(deps: Deps, viewer: Viewer, raw: unknown): Promise<EndpointRow> {
  const input = parseWebhookInput(UpdateEndpointInput, raw);
  const workspaceId = await workspaceOfEndpoint(deps, viewer, input.endpointId);
  requireWebhookAdmin(viewer, workspaceId);
  const change: Partial<EndpointFields> = {};
  if (input.url !== undefined) change.url = input.url;
  if (input.description !== undefined) change.description = input.description;
  if (input.enabled !== undefined) change.enabled = input.enabled;
  if (input.eventTypes !== undefined) change.eventTypes = normalizeTypes(input.eventTypes);
  if (input.visibilities !== undefined) change.visibilities = normalizeVisibilities(input.visibilities);
  if (!Object.keys(change).length) throw badInput('Nothing to change: give url, description, eventTypes, visibilities or enabled', { argument: 'input' });
  // Enabling restarts at the head: make it current first (see createWebhookEndpoint).
  if (input.enabled) await sequenceEvents(deps.prisma, [workspaceId]);
  return deps.prisma.$transaction(async (tx) => {
    const current = await lockEndpoint(tx, workspaceId, input.endpointId);
    if (!current) throw notFound('Webhook endpoint');
    checkSelectsSomething(
      normalizeTypes(change.eventTypes ?? current.eventTypes),
      normalizeVisibilities((change.visibilities ?? current.visibilities) as EventVisibility[]),
    );
    if (change.url !== undefined) {
      await recordRegisteredHost(tx, { workspaceId, url: change.url, source: 'WEBHOOK', note: `webhook ${change.description || current.description || change.url}`, createdById: viewer.userId });
    }
    return updateEndpointRow(tx, workspaceId, input.endpointId, change, current.enabled);
  });
}

export async function deleteWebhookEndpoint(deps: Deps, viewer: Viewer, raw: unknown): Promise<string> {
  const input = parseWebhookInput(UpdateEndpointInput.pick({ endpointId: true }), raw);
  const workspaceId = await workspaceOfEndpoint(deps, viewer, input.endpointId);
  requireWebhookAdmin(viewer, workspaceId);
  // Its deliveries and their attempts go with it; a send job still queued finds nothing and ends.
  if (!(await deleteEndpointRow(deps.prisma, workspaceId, input.endpointId))) throw notFound('Webhook endpoint');
  return input.endpointId;
}

export async function rotateWebhookSecret(deps: Deps, viewer: Viewer, raw: unknown): Promise<EndpointWithSecret> {
  const input = parseWebhookInput(RotateSecretInput, raw);
  const workspaceId = await workspaceOfEndpoint(deps, viewer, input.endpointId);
  requireWebhookAdmin(viewer, workspaceId);
  const graceSeconds = input.graceSeconds ?? webhookSettings(deps.config).secretGraceSeconds;
  const secret = newSecret();
  const endpoint = await deps.prisma.$transaction(async (tx) => {
    if (!(await lockEndpoint(tx, workspaceId, input.endpointId))) throw notFound('Webhook endpoint');
    return rotateSecretRows(tx, workspaceId, input.endpointId, { secret, hint: secretHint(secret), graceEnd: new Date(Date.now() + graceSeconds * 1000) });
  });
  return { endpoint, secret };
}
