// Webhook deliveries and their attempts. Invariants:
//  - An attempt is recorded once: the delivery moves on only while it is still PENDING at the
//    attempt's series and number (a repeated or stale send job matches nothing and records nothing),
//    and the attempt row is written in the same statement.
//  - A delivery's message id (the webhook-id header) never changes: retries and redeliveries send
//    the same id, so a receiver can drop a message it has already handled.
//  - A redelivery starts a new series (series + 1, no attempts yet); a job of an earlier series is
//    stale from then on.
//  - Every statement names the workspace.
import { rawQuery, type Db, type Tx } from '../../db/client.ts';
import type { Prisma, WebhookDeliveryStatus } from '../../db/generated/client.ts';
import { endpointInclude } from './endpoints.ts';

/** Attempts shown with a delivery: the most recent ones (a delivery redelivered many times keeps all rows). */
export const ATTEMPTS_SHOWN = 100;

/** A delivery as the API shows it: with its latest attempts and its endpoint (one query for a page). */
export const deliveryInclude = (now: Date) =>
  ({
    attemptLog: { orderBy: [{ series: 'desc' }, { number: 'desc' }], take: ATTEMPTS_SHOWN },
    endpoint: { include: endpointInclude(now) },
  }) satisfies Prisma.WebhookDeliveryInclude;

export type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ include: ReturnType<typeof deliveryInclude> }>;

/** A delivery with what sending it needs: its endpoint's address and whether it is enabled. */
export async function deliveryForSend(db: Db, workspaceId: string, deliveryId: string) {
  return db.webhookDelivery.findFirst({
    where: { id: deliveryId, workspaceId },
    include: { endpoint: { select: { id: true, url: true, enabled: true } } },
  });
}

export type DeliveryForSend = NonNullable<Awaited<ReturnType<typeof deliveryForSend>>>;

export type AttemptRecord = {
  workspaceId: string;
  deliveryId: string;
  series: number;
  number: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  /** Where the delivery goes: DELIVERED, PENDING (a retry at `nextAttemptAt`) or DEAD. */
  status: WebhookDeliveryStatus;
  nextAttemptAt: Date | null;
};

const RECORD_SQL = `
WITH d AS (
  UPDATE webhook_deliveries
     SET attempts = attempts + 1,
         status = $5::"WebhookDeliveryStatus",
         last_attempt_at = $6::timestamptz,
         last_status_code = $7::int,
         last_error = $8::text,
         next_attempt_at = $9::timestamptz,
         delivered_at = CASE WHEN $5::text = 'DELIVERED' THEN now() ELSE delivered_at END,
         updated_at = now()
   WHERE workspace_id = $1::uuid AND id = $2::uuid AND series = $3::int AND attempts = $4::int - 1 AND status = 'PENDING'
  RETURNING id, workspace_id
)
INSERT INTO webhook_delivery_attempts (id, workspace_id, delivery_id, series, number, started_at, duration_ms, status_code, error, response_body)
SELECT gen_random_uuid(), d.workspace_id, d.id, $3::int, $4::int, $6::timestamptz, $10::int, $7::int, $8::text, $11::text FROM d
RETURNING id::text`;

/** Records the attempt and moves the delivery on; false when the delivery had already moved (nothing written). */
export async function recordAttempt(tx: Tx, a: AttemptRecord): Promise<boolean> {
  const rows = await rawQuery<{ id: string }>(tx, RECORD_SQL, [
    a.workspaceId,
    a.deliveryId,
    a.series,
    a.number,
    a.status,
    a.startedAt,
    a.statusCode,
    a.error,
    a.nextAttemptAt,
    a.durationMs,
    a.responseBody,
  ]);
  return rows.length > 0;
}

/** Starts a new series of attempts (same message id); returns its number, or null when the delivery does not exist. */
export async function restartSeries(tx: Tx, workspaceId: string, deliveryId: string): Promise<number | null> {
  const rows = await rawQuery<{ series: number }>(
    tx,
    `UPDATE webhook_deliveries SET series = series + 1, attempts = 0, status = 'PENDING', next_attempt_at = now(), updated_at = now()
      WHERE workspace_id = $1::uuid AND id = $2::uuid RETURNING series`,
    [workspaceId, deliveryId],
  );
  return rows[0]?.series ?? null;
}

export async function insertPing(tx: Tx, workspaceId: string, endpointId: string, messageId: string): Promise<{ id: string }> {
  return tx.webhookDelivery.create({
    data: { workspaceId, endpointId, kind: 'PING', messageId, eventType: 'PING', occurredAt: new Date(), nextAttemptAt: new Date() },
    select: { id: true },
  });
}

export async function deliveriesByIds(db: Db, ids: readonly string[], workspaceIds: readonly string[]): Promise<DeliveryRow[]> {
  if (!ids.length || !workspaceIds.length) return [];
  return db.webhookDelivery.findMany({ where: { id: { in: [...ids] }, workspaceId: { in: [...workspaceIds] } }, include: deliveryInclude(new Date()) });
}

/** A page of the workspace's deliveries in (createdAt, id) order; `and` holds the keyset bounds. */
export async function deliveryPage(
  db: Db,
  where: { workspaceId: string; endpointId?: string; statuses?: WebhookDeliveryStatus[] },
  and: Prisma.WebhookDeliveryWhereInput[],
  order: 'asc' | 'desc',
  take: number,
): Promise<DeliveryRow[]> {
  return db.webhookDelivery.findMany({
    where: {
      workspaceId: where.workspaceId,
      ...(where.endpointId ? { endpointId: where.endpointId } : {}),
      ...(where.statuses?.length ? { status: { in: where.statuses } } : {}),
      AND: and,
    },
    orderBy: [{ createdAt: order }, { id: order }],
    take,
    include: deliveryInclude(new Date()),
  });
}
