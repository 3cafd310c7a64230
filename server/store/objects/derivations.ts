// What object versions were made from (object_derivations). Invariants:
//  - a derivation is written once, in the transaction that creates the version it describes, and
//    never changed (the unique (object, version, source) makes a replayed creation add nothing);
//  - every statement names the workspace: a source or object of another workspace is never read
//    or linked.
import type { Db, Tx } from '../../db/client.ts';
import type { ObjectDerivation } from '../../db/generated/client.ts';
import { assetIdForJob } from './store.ts';

export type DerivationRow = ObjectDerivation;
export type Source = { objectId: string; version: number };

/** The object a result reference names: `object:<id>`, or `job:<id>` (the job's result). */
export function objectIdOfRef(ref: string): string | null {
  const m = /^(object|job):([0-9a-f-]{36})$/i.exec(ref.trim());
  if (!m) return null;
  return m[1]!.toLowerCase() === 'job' ? assetIdForJob(m[2]!.toLowerCase()) : m[2]!.toLowerCase();
}

/** The objects the references name in this workspace, each at its current version (unknown ones left out). */
export async function resolveSources(db: Db, workspaceId: string, refs: readonly string[]): Promise<Source[]> {
  const ids = [...new Set(refs.map(objectIdOfRef).filter((x): x is string => x !== null))];
  if (!ids.length) return [];
  const rows = await db.workspaceObject.findMany({ where: { workspaceId, id: { in: ids }, deletedAt: null }, select: { id: true, currentVersion: true } });
  return rows.map((r) => ({ objectId: r.id, version: r.currentVersion })).sort((a, b) => (a.objectId < b.objectId ? -1 : 1));
}

export async function insertDerivations(
  tx: Tx,
  d: { workspaceId: string; objectId: string; objectVersion: number; sources: readonly Source[]; taskId: string | null; stepId: string | null; jobId: string | null },
): Promise<void> {
  const sources = d.sources.filter((s) => s.objectId !== d.objectId);
  if (!sources.length) return;
  await tx.objectDerivation.createMany({
    data: sources.map((s) => ({ workspaceId: d.workspaceId, objectId: d.objectId, objectVersion: d.objectVersion, sourceId: s.objectId, sourceVersion: s.version, taskId: d.taskId, stepId: d.stepId, jobId: d.jobId })),
    skipDuplicates: true,
  });
}

/** What the objects' versions were made from, newest version first. */
export function derivationsOfObjects(db: Db, workspaceIds: readonly string[], objectIds: readonly string[]): Promise<DerivationRow[]> {
  return db.objectDerivation.findMany({ where: { workspaceId: { in: [...workspaceIds] }, objectId: { in: [...objectIds] } }, orderBy: [{ objectVersion: 'desc' }, { sourceId: 'asc' }] });
}

/** What was made from the objects (any version of them), oldest first. */
export function derivationsFromSources(db: Db, workspaceIds: readonly string[], sourceIds: readonly string[]): Promise<DerivationRow[]> {
  return db.objectDerivation.findMany({ where: { workspaceId: { in: [...workspaceIds] }, sourceId: { in: [...sourceIds] } }, orderBy: [{ createdAt: 'asc' }, { objectId: 'asc' }] });
}
