// The immutable versions of an object. The caller has loaded the object through the viewer's
// visibility rules first. A version withheld because it contained a value its owner asked to forget
// comes back without its text, marked `withheld` (store/objects/withheld.ts).
import type { Viewer } from '../../auth/viewer.ts';
import type { ObjectVersion } from '../../db/generated/client.ts';
import { maskWithheld, type MaybeWithheld, type Withheld } from '../../store/objects/withheld.ts';
import type { Deps } from '../deps.ts';

export type VersionKey = { objectId: string; version: number };
export type ReadableVersion = MaybeWithheld<ObjectVersion>;
export type { Withheld };

/** Versions by (object, number), in key order, null for a number that does not exist. */
export async function loadObjectVersions(deps: Deps, _viewer: Viewer, keys: readonly VersionKey[]): Promise<(ReadableVersion | null)[]> {
  const rows = await deps.prisma.objectVersion.findMany({ where: { OR: keys.map((k) => ({ objectId: k.objectId, version: k.version })) } });
  const m = new Map(rows.map((r) => [`${r.objectId}:${r.version}`, r]));
  return maskWithheld(deps.prisma, keys.map((k) => m.get(`${k.objectId}:${k.version}`) ?? null));
}

/** A page of the history, newest first. */
export async function listObjectVersions(deps: Deps, _viewer: Viewer, input: { objectId: string; limit: number; offset: number }): Promise<ReadableVersion[]> {
  const rows = await deps.prisma.objectVersion.findMany({ where: { objectId: input.objectId }, orderBy: { version: 'desc' }, skip: input.offset, take: input.limit });
  return (await maskWithheld(deps.prisma, rows)) as ReadableVersion[];
}
