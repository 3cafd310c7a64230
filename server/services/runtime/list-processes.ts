// The product's processes and their heartbeats, for operators: owners only (it names hosts).
import type { Viewer } from '../../auth/viewer.ts';
import type { Deps } from '../deps.ts';
import { forbidden } from '../../errors.ts';
import { listProcesses } from '../../store/processes.ts';

export async function listRuntimeProcesses(deps: Deps, viewer: Viewer) {
  if (![...viewer.memberships.values()].includes('OWNER')) throw forbidden('Only a workspace owner can see the runtime processes');
  return listProcesses(deps.prisma, deps.config.runtime.heartbeatMs ?? 5000);
}
