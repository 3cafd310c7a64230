// The ledger rolled up per UTC day (workspace or one task): held, charged, released.
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Deps } from '../deps.ts';
import { badInput } from '../../errors.ts';

export type LedgerDay = { day: string; heldCents: number; chargedCents: number; releasedCents: number; entries: number };

export async function ledgerByDay(
  deps: Deps,
  viewer: Viewer,
  where: { workspaceId: string; taskId?: string | null; days?: number | null },
): Promise<LedgerDay[]> {
  requireWorkspace(viewer, where.workspaceId, 'read');
  const days = where.days ?? 30;
  if (!Number.isInteger(days) || days < 1 || days > 366) throw badInput('days must be between 1 and 366');
  const rows = await deps.prisma.$queryRawUnsafe<{ day: string; held: bigint; charged: bigint; released: bigint; n: bigint }[]>(
    `SELECT to_char(created_at AT TIME ZONE 'utc', 'YYYY-MM-DD') AS day,
            SUM(amount_cents) FILTER (WHERE kind = 'HOLD')::bigint AS held,
            COALESCE(SUM(amount_cents) FILTER (WHERE kind = 'CHARGE'), 0)::bigint AS charged,
            COALESCE(SUM(amount_cents) FILTER (WHERE kind = 'RELEASE'), 0)::bigint AS released,
            COUNT(*)::bigint AS n
       FROM ledger_entries
      WHERE workspace_id = $1::uuid AND ($2::uuid IS NULL OR task_id = $2::uuid)
        AND created_at >= (date_trunc('day', now() AT TIME ZONE 'utc') - ($3::int - 1) * interval '1 day') AT TIME ZONE 'utc'
      GROUP BY 1 ORDER BY 1 DESC`,
    where.workspaceId,
    where.taskId ?? null,
    days,
  );
  return rows.map((r) => ({
    day: r.day,
    heldCents: Number(r.held ?? 0),
    chargedCents: Number(r.charged),
    releasedCents: Number(r.released),
    entries: Number(r.n),
  }));
}
