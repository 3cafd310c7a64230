// The database's readiness as the HTTP health check sees it.
import type { PrismaClient } from '../db/client.ts';

/** A round trip that touches no table: it succeeds exactly when the database accepts and answers a query. */
export function ping(prisma: PrismaClient): Promise<unknown> {
  return prisma.$queryRawUnsafe('SELECT 1');
}
