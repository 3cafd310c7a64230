// Data keys as readers need them (store/sealing): a key's material, or null with the reason once
// forgetting destroyed it. Key ids come from sealed content the viewer was already allowed to load,
// so no further visibility check applies; an unknown id reads as destroyed.
import type { Viewer } from '../../auth/viewer.ts';
import type { KnownKey } from '../../domain/sealing.ts';
import type { Deps } from '../deps.ts';
import { knownKeys, tasksWithDestroyedKeys } from '../../store/sealing/keys.ts';

export async function loadDataKeys(deps: Deps, _viewer: Viewer, ids: readonly string[]): Promise<KnownKey[]> {
  const keys = await knownKeys(deps.prisma, ids);
  return ids.map((id) => keys.get(id) ?? { material: null, reason: 'FORGOTTEN' });
}

/** Per task (the caller loaded each through the viewer's visibility rules): whether forgetting withheld some of its content. */
export async function loadTasksWithheld(deps: Deps, _viewer: Viewer, taskIds: readonly string[]): Promise<boolean[]> {
  const withheld = await tasksWithDestroyedKeys(deps.prisma, taskIds);
  return taskIds.map((id) => withheld.has(id));
}
