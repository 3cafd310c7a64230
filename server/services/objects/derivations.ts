// Object dependencies for the API: what an object was made from, and what was made from it, for
// the viewer's workspaces only (batch functions for the request's loaders).
import type { Viewer } from '../../auth/viewer.ts';
import { derivationsFromSources, derivationsOfObjects, type DerivationRow } from '../../store/objects/derivations.ts';
import type { Deps } from '../deps.ts';

export type { DerivationRow } from '../../store/objects/derivations.ts';

const group = (rows: readonly DerivationRow[], keys: readonly string[], by: (r: DerivationRow) => string): DerivationRow[][] => {
  const m = new Map<string, DerivationRow[]>(keys.map((k) => [k, []]));
  for (const r of rows) m.get(by(r))?.push(r);
  return keys.map((k) => m.get(k) ?? []);
};

export async function loadDerivedFrom(deps: Pick<Deps, 'prisma'>, viewer: Viewer, objectIds: readonly string[]): Promise<DerivationRow[][]> {
  return group(await derivationsOfObjects(deps.prisma, [...viewer.memberships.keys()], objectIds), objectIds, (r) => r.objectId);
}

export async function loadDependents(deps: Pick<Deps, 'prisma'>, viewer: Viewer, objectIds: readonly string[]): Promise<DerivationRow[][]> {
  return group(await derivationsFromSources(deps.prisma, [...viewer.memberships.keys()], objectIds), objectIds, (r) => r.sourceId);
}
