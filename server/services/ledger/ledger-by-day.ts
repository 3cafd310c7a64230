// The ledger rolled up per UTC day (workspace or one task): held, still on hold, charged, released.
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Deps } from '../deps.ts';
import { badInput } from '../../errors.ts';
import { ledgerDays } from '../../store/ledger.ts';

export type LedgerDay = { day: string; heldCents: number; onHoldCents: number; chargedCents: number; releasedCents: number; entries: number };

export async function ledgerByDay(
  deps: Deps,
  viewer: Viewer,
  where: { workspaceId: string; taskId?: string | null; days?: number | null },
): Promise<LedgerDay[]> {
  requireWorkspace(viewer, where.workspaceId, 'read');
  const days = where.days ?? 30;
  if (!Number.isInteger(days) || days < 1 || days > 366) throw badInput('days must be between 1 and 366');
  const rows = await ledgerDays(deps.prisma, { workspaceId: where.workspaceId, taskId: where.taskId ?? null, days });
  return rows.map((r) => ({
    day: r.day,
    heldCents: Number(r.held ?? 0),
    onHoldCents: Number(r.on_hold),
    chargedCents: Number(r.charged),
    releasedCents: Number(r.released),
    entries: Number(r.n),
  }));
}
