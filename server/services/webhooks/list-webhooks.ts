// Reading a workspace's webhooks (owners only): endpoints and deliveries newest first, keyset-paged
// over (createdAt, id), and by id for node(id) — ids the viewer may not read load as null.
import type { Viewer } from '../../auth/viewer.ts';
import type { WebhookDeliveryStatus } from '../../db/generated/client.ts';
import { deliveriesByIds, deliveryPage, type DeliveryRow } from '../../store/webhooks/deliveries.ts';
import { endpointPage, endpointsByIds, type EndpointRow } from '../../store/webhooks/endpoints.ts';
import { inKeyOrder, uuidsOf } from '../batch.ts';
import type { Deps } from '../deps.ts';
import { cursorOfEvent } from '../events/event-view.ts';
import { afterKeyset, beforeKeyset, decodeKeyset } from '../keyset.ts';
import { requireWebhookReader, webhookWorkspaceIds } from './access.ts';

export type { DeliveryRow, EndpointRow };
export type Page = { after?: string | null; before?: string | null; limit: number; inverted: boolean };

/** Newest first: "after" a cursor is older, "before" is newer. */
function bounds(page: Page) {
  const and = [];
  if (page.after) and.push(beforeKeyset(decodeKeyset(page.after)));
  if (page.before) and.push(afterKeyset(decodeKeyset(page.before, 'before')));
  return { and, order: page.inverted ? ('asc' as const) : ('desc' as const) };
}

export async function listWebhookEndpoints(deps: Deps, viewer: Viewer, workspaceId: string, page: Page): Promise<EndpointRow[]> {
  requireWebhookReader(viewer, workspaceId);
  const { and, order } = bounds(page);
  return endpointPage(deps.prisma, workspaceId, and, order, page.limit);
}

export async function listWebhookDeliveries(
  deps: Deps,
  viewer: Viewer,
  where: { workspaceId: string; endpointId?: string; statuses?: WebhookDeliveryStatus[] | null },
  page: Page,
): Promise<DeliveryRow[]> {
  requireWebhookReader(viewer, where.workspaceId);
  const { and, order } = bounds(page);
  // A set of statuses: repeated values mean nothing.
  const statuses = where.statuses?.length ? [...new Set(where.statuses)] : undefined;
  return deliveryPage(deps.prisma, { workspaceId: where.workspaceId, endpointId: where.endpointId, statuses }, and, order, page.limit);
}

export async function loadWebhookEndpoints(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(EndpointRow | null)[]> {
  return inKeyOrder(ids, await endpointsByIds(deps.prisma, uuidsOf(ids), webhookWorkspaceIds(viewer)));
}

export async function loadWebhookDeliveries(deps: Deps, viewer: Viewer, ids: readonly string[]): Promise<(DeliveryRow | null)[]> {
  return inKeyOrder(ids, await deliveriesByIds(deps.prisma, uuidsOf(ids), webhookWorkspaceIds(viewer)));
}

/** The workspace cursor of a position (what TaskEvent.cursor gives for the event at that position). */
export const encodeWorkspaceCursorOf = (workspaceId: string, position: bigint | number): string => cursorOfEvent({ workspaceId, position: Number(position) });
