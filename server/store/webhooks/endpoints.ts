// Webhook endpoints and their signing secrets. Invariants:
//  - A new or re-enabled endpoint starts at the workspace's head: it receives the events that come
//    after, never a backlog (the caller sequences the workspace first, so the head is current).
//  - At most one current secret per endpoint (expiresAt null); a rotation gives every other valid
//    secret an expiry no later than the end of the grace period and adds the new one, under the
//    endpoint's row lock, so two rotations at once leave one current secret.
//  - Every statement names the workspace: an endpoint id of another workspace matches nothing.
import type { Db, Tx } from '../../db/client.ts';
import type { Prisma } from '../../db/generated/client.ts';

/** The secrets that sign now: the current one and those still in their grace period, newest first. */
export const validSecretsWhere = (now: Date) => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });

/** An endpoint as the API reads it: its valid secrets without the secrets themselves (only their hints). */
export const endpointInclude = (now: Date) =>
  ({
    secrets: {
      where: validSecretsWhere(now),
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true, hint: true, createdAt: true, expiresAt: true },
    },
  }) satisfies Prisma.WebhookEndpointInclude;

export type EndpointRow = Prisma.WebhookEndpointGetPayload<{ include: ReturnType<typeof endpointInclude> }>;

export type EndpointFields = {
  url: string;
  description: string;
  enabled: boolean;
  eventTypes: string[];
  visibilities: string[];
};

/** The workspace's last sequenced position (read after sequencing it). */
async function head(tx: Tx, workspaceId: string): Promise<bigint> {
  const w = await tx.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { eventPosition: true } });
  return w.eventPosition;
}

export async function insertEndpoint(
  tx: Tx,
  e: EndpointFields & { workspaceId: string; createdById: string; secret: string; hint: string },
): Promise<EndpointRow> {
  const created = await tx.webhookEndpoint.create({
    data: {
      workspaceId: e.workspaceId,
      url: e.url,
      description: e.description,
      enabled: e.enabled,
      eventTypes: e.eventTypes,
      visibilities: e.visibilities,
      eventCursor: await head(tx, e.workspaceId),
      createdById: e.createdById,
      secrets: { create: { workspaceId: e.workspaceId, secret: e.secret, hint: e.hint } },
    },
  });
  return tx.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id }, include: endpointInclude(new Date()) });
}

/** The endpoint of the workspace, its row locked until the transaction ends; null when none. */
export async function lockEndpoint(tx: Tx, workspaceId: string, endpointId: string) {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM webhook_endpoints WHERE workspace_id = ${workspaceId}::uuid AND id = ${endpointId}::uuid FOR UPDATE`;
  if (!rows.length) return null;
  return tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
}

export async function updateEndpointRow(tx: Tx, workspaceId: string, endpointId: string, change: Partial<EndpointFields>, wasEnabled: boolean): Promise<EndpointRow> {
  // Enabling starts from the head again: the events of the disabled time are not sent.
  const restart = change.enabled === true && !wasEnabled ? { eventCursor: await head(tx, workspaceId) } : {};
  await tx.webhookEndpoint.update({ where: { id: endpointId, workspaceId }, data: { ...change, ...restart } });
  return tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId }, include: endpointInclude(new Date()) });
}

/** Deletes the endpoint with its secrets, deliveries and attempts; false when it did not exist. */
export async function deleteEndpointRow(db: Db, workspaceId: string, endpointId: string): Promise<boolean> {
  const r = await db.webhookEndpoint.deleteMany({ where: { id: endpointId, workspaceId } });
  return r.count > 0;
}

/** Adds `secret` as the current one; the others stop signing at `graceEnd` at the latest. Caller holds the endpoint's lock. */
export async function rotateSecretRows(tx: Tx, workspaceId: string, endpointId: string, s: { secret: string; hint: string; graceEnd: Date }): Promise<EndpointRow> {
  const now = new Date();
  // Secrets past their grace are of no use any more.
  await tx.webhookSecret.deleteMany({ where: { workspaceId, endpointId, expiresAt: { lte: now } } });
  await tx.webhookSecret.updateMany({ where: { workspaceId, endpointId, OR: [{ expiresAt: null }, { expiresAt: { gt: s.graceEnd } }] }, data: { expiresAt: s.graceEnd } });
  await tx.webhookSecret.create({ data: { workspaceId, endpointId, secret: s.secret, hint: s.hint } });
  return tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId }, include: endpointInclude(new Date()) });
}

/** The secrets that sign a delivery now, newest first. */
export async function signingSecrets(db: Db, workspaceId: string, endpointId: string, now = new Date()): Promise<string[]> {
  const rows = await db.webhookSecret.findMany({
    where: { workspaceId, endpointId, ...validSecretsWhere(now) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { secret: true },
  });
  return rows.map((r) => r.secret);
}

/** Endpoints by id within `workspaceIds` (others load as absent). */
export async function endpointsByIds(db: Db, ids: readonly string[], workspaceIds: readonly string[]): Promise<EndpointRow[]> {
  if (!ids.length || !workspaceIds.length) return [];
  return db.webhookEndpoint.findMany({ where: { id: { in: [...ids] }, workspaceId: { in: [...workspaceIds] } }, include: endpointInclude(new Date()) });
}

/** A page of the workspace's endpoints in (createdAt, id) order; `and` holds the keyset bounds. */
export async function endpointPage(db: Db, workspaceId: string, and: Prisma.WebhookEndpointWhereInput[], order: 'asc' | 'desc', take: number): Promise<EndpointRow[]> {
  return db.webhookEndpoint.findMany({
    where: { workspaceId, AND: and },
    orderBy: [{ createdAt: order }, { id: order }],
    take,
    include: endpointInclude(new Date()),
  });
}
