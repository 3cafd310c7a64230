// Sending again by hand (owners only): a redelivery starts a new series of attempts for a delivery,
// with the same webhook-id, whatever its status (a DEAD one after the receiver was fixed, a
// DELIVERED one the receiver lost); a test PING is a new delivery of its own, outside the filters.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Viewer } from '../../auth/viewer.ts';
import { notFound } from '../../errors.ts';
import { deliveriesByIds, insertPing, restartSeries, type DeliveryRow } from '../../store/webhooks/deliveries.ts';
import type { Deps } from '../deps.ts';
import { requireWebhookAdmin } from './access.ts';
import { parseWebhookInput } from './endpoint-input.ts';
import { enqueueSends } from './queue.ts';

const DeliveryInput = z.object({ deliveryId: z.string().uuid() });
const EndpointInput = z.object({ endpointId: z.string().uuid() });

async function reload(deps: Deps, workspaceId: string, id: string): Promise<DeliveryRow> {
  const [d] = await deliveriesByIds(deps.prisma, [id], [workspaceId]);
  if (!d) throw notFound('Webhook delivery');
  return d;
}

export async function redeliverWebhook(deps: Deps, viewer: Viewer, raw: unknown): Promise<DeliveryRow> {
  const { deliveryId } = parseWebhookInput(DeliveryInput, raw);
  const d = await deps.prisma.webhookDelivery.findFirst({ where: { id: deliveryId, workspaceId: { in: [...viewer.memberships.keys()] } }, select: { workspaceId: true } });
  if (!d) throw notFound('Webhook delivery');
  requireWebhookAdmin(viewer, d.workspaceId);
  await deps.prisma.$transaction(async (tx) => {
    const series = await restartSeries(tx, d.workspaceId, deliveryId);
    if (series === null) throw notFound('Webhook delivery');
    await enqueueSends(tx, deps.scheduler, [{ job: { workspaceId: d.workspaceId, deliveryId, series, attempt: 1 } }]);
  });
  return reload(deps, d.workspaceId, deliveryId);
}

export async function sendTestWebhook(deps: Deps, viewer: Viewer, raw: unknown): Promise<DeliveryRow> {
  const { endpointId } = parseWebhookInput(EndpointInput, raw);
  const e = await deps.prisma.webhookEndpoint.findFirst({ where: { id: endpointId, workspaceId: { in: [...viewer.memberships.keys()] } }, select: { workspaceId: true } });
  if (!e) throw notFound('Webhook endpoint');
  requireWebhookAdmin(viewer, e.workspaceId);
  const id = await deps.prisma.$transaction(async (tx) => {
    const ping = await insertPing(tx, e.workspaceId, endpointId, `msg_${randomUUID().replaceAll('-', '')}`);
    await enqueueSends(tx, deps.scheduler, [{ job: { workspaceId: e.workspaceId, deliveryId: ping.id, series: 1, attempt: 1 } }]);
    return ping.id;
  });
  return reload(deps, e.workspaceId, id);
}
