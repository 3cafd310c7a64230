// A task's money: quotes held, charged on delivery, released on failure. The caller has loaded the
// task through the viewer's visibility rules first.
import type { Viewer } from '../../auth/viewer.ts';
import { ledgerSummary } from '../../generation/jobs.ts';
import type { Deps } from '../deps.ts';

export type LedgerSummary = { heldCents: number; chargedCents: number; releasedCents: number; outstandingCents: number; savedCents: number };

export const taskLedger = (deps: Deps, _viewer: Viewer, taskId: string): Promise<LedgerSummary> => ledgerSummary(deps.prisma, { taskId });
