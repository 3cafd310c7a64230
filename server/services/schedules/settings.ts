// What a schedule takes from its workspace's settings: the time zone a new schedule is read in,
// and the default cap per task, which an integration may tighten but not loosen (spending limits
// are a person's, auth/mutation-policy.ts).
import type { Viewer } from '../../auth/viewer.ts';
import { forbidden } from '../../errors.ts';
import type { Deps } from '../deps.ts';

export async function workspaceTimeZone(deps: Deps, workspaceId: string): Promise<string> {
  const s = await deps.prisma.workspaceSettings.findUnique({ where: { workspaceId }, select: { timeZone: true } });
  return s?.timeZone ?? 'UTC';
}

/** An integration's token may set a cap up to the workspace's default cap per task (any cap, when there is none). */
export async function checkCapAllowed(deps: Deps, viewer: Viewer, workspaceId: string, cap: number | null): Promise<void> {
  if (cap === null || viewer.principal === 'HUMAN') return;
  const s = await deps.prisma.workspaceSettings.findUnique({ where: { workspaceId }, select: { taskBudgetCapCents: true } });
  const limit = s?.taskBudgetCapCents ?? null;
  if (limit !== null && cap > limit) {
    throw forbidden(`An integration may set a budget cap of at most the workspace's default cap per task (${limit} cents); only a person can set a higher one`);
  }
}
