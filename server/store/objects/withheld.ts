// Withheld versions of a work. Object versions are immutable rows (a trigger refuses any UPDATE but
// the one that withholds a version), so a version that still contains a value the person asked to
// forget is withheld by a later version of the same object: the redaction version records `changes.withheld = { versions, reason,
// message, label }` (redact-works.ts). Every read of a version through the API or by a task passes
// through `maskWithheld`, which shows such a version as withheld — its name, content, summary and
// changes replaced — and never its stored text; and the stored text itself is emptied in the same
// transaction (`emptyWithheldVersions`), so it is not in the database either.
// Invariant: withholding only grows (versions are append-only), so a version once withheld stays
// withheld for every reader.
import type { Db, Tx } from '../../db/client.ts';
import type { ObjectVersion } from '../../db/generated/client.ts';
import type { WithheldVersions } from '../../domain/object-content.ts';

export type Withheld = { reason: WithheldVersions['reason']; message: string; label: string; inVersion: number; kind: string };
export type MaybeWithheld<V> = V & { withheld?: Withheld | null };

/** Per object, its withheld version numbers and the version that withheld each. */
export async function withheldOf(db: Db, objectIds: readonly string[]): Promise<Map<string, Map<number, Withheld>>> {
  const out = new Map<string, Map<number, Withheld>>();
  const ids = [...new Set(objectIds)];
  if (!ids.length) return out;
  const rows = await db.$queryRawUnsafe<{ object_id: string; kind: string; version: number; w: WithheldVersions }[]>(
    `SELECT v.object_id, o.kind::text AS kind, v.version, v.changes->'withheld' AS w
       FROM object_versions v JOIN workspace_objects o ON o.id = v.object_id
      WHERE v.object_id = ANY($1::uuid[]) AND v.changes ? 'withheld' ORDER BY v.version`,
    ids,
  );
  for (const r of rows) {
    const m = out.get(r.object_id) ?? out.set(r.object_id, new Map()).get(r.object_id)!;
    for (const v of r.w.versions ?? []) if (!m.has(v)) m.set(v, { reason: r.w.reason, message: r.w.message, label: r.w.label, inVersion: r.version, kind: r.kind });
  }
  return out;
}

/** Content of the kind's shape with nothing in it, so a reader of that kind needs no special case. */
function emptyContentOf(kind: string, message: string): Record<string, unknown> {
  if (kind === 'DOCUMENT') return { markdown: message };
  if (kind === 'FLOW') return { nodes: [], edges: [] };
  if (kind === 'COLLECTION') return { items: [] };
  return { provenance: {} };
}

/** A version as readers see it: withheld ones carry `withheld` and none of their text. */
export function maskVersion<V extends ObjectVersion>(v: V, w: Withheld | undefined): MaybeWithheld<V> {
  if (!w) return v;
  return { ...v, name: w.label, content: { ...emptyContentOf(w.kind, w.message), withheld: true }, summary: w.message, changes: {}, nodeVersions: null, withheld: w };
}

/** Masks a batch of versions (nulls pass through). */
export async function maskWithheld<V extends ObjectVersion>(db: Db, rows: (V | null)[]): Promise<(MaybeWithheld<V> | null)[]> {
  const map = await withheldOf(
    db,
    rows.flatMap((r) => (r ? [r.objectId] : [])),
  );
  return rows.map((r) => (r ? maskVersion(r, map.get(r.objectId)?.get(r.version)) : null));
}


/**
 * A page of the current versions of a workspace's live (not deleted) objects, in id order after
 * `afterId`. Used to find the works that contain a value a person asks to forget.
 */
export function currentVersionsPage(db: Db, workspaceId: string, afterId: string | null, limit: number) {
  return db.$queryRawUnsafe<{ object_id: string; kind: string; version: number; name: string; content: unknown }[]>(
    `SELECT o.id AS object_id, o.kind::text AS kind, v.version, v.name, v.content
       FROM workspace_objects o JOIN object_versions v ON v.object_id = o.id AND v.version = o.current_version
      WHERE o.workspace_id = $1::uuid AND o.deleted_at IS NULL AND ($2::uuid IS NULL OR o.id > $2::uuid)
      ORDER BY o.id LIMIT $3`,
    workspaceId,
    afterId,
    limit,
  );
}

/** Every version of an object (name and content), oldest first. */
export function versionsOf(db: Db, objectId: string) {
  return db.objectVersion.findMany({ where: { objectId }, orderBy: { version: 'asc' }, select: { version: true, name: true, content: true } });
}

/**
 * Empties the stored name, content and summary of withheld versions: the immutability trigger of
 * object_versions admits exactly one change of a version — setting `withheld_at` once, with its
 * text replaced. What the version withheld in turn (`changes.withheld`) is kept, so an earlier
 * redaction of the same work stays in force; the rest of its changes (section headings) goes.
 * Invariant: identity, number, authorship and time of a version never change.
 */
export async function emptyWithheldVersions(tx: Tx, objectId: string, versions: number[], w: Omit<Withheld, 'inVersion'>): Promise<void> {
  if (!versions.length) return;
  await tx.$executeRawUnsafe(
    `UPDATE object_versions
        SET name = $3, content = $4::jsonb, summary = $5, node_versions = NULL,
            changes = CASE WHEN changes ? 'withheld' THEN jsonb_build_object('withheld', changes->'withheld') ELSE '{}'::jsonb END,
            withheld_at = now(), withheld_reason = $6
      WHERE object_id = $1::uuid AND version = ANY($2::int[]) AND withheld_at IS NULL`,
    objectId,
    versions,
    w.label,
    JSON.stringify({ ...emptyContentOf(w.kind, w.message), withheld: true }),
    w.message,
    w.reason,
  );
}
