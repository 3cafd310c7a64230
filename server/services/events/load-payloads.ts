// Event payloads stored by reference (content hash), for many events at once. The caller has
// loaded each event through the viewer's visibility rules first and checked it is not private.
import type { Viewer } from '../../auth/viewer.ts';
import type { Deps } from '../deps.ts';

export async function loadEventPayloads(deps: Deps, _viewer: Viewer, hashes: readonly string[]): Promise<unknown[]> {
  const rows = await deps.prisma.eventPayload.findMany({ where: { hash: { in: [...hashes] } } });
  // Sealed bodies stay sealed here: the GraphQL payload field opens them with the request's key loader.
  const m = new Map(rows.map((r) => [r.hash, r.body]));
  return hashes.map((h) => m.get(h) ?? null);
}
