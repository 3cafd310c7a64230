// "Works stay the person's": when a person asks to forget a source or a memory, the card lists the
// works — documents, flows, assets — whose current name or content contains a value being
// forgotten, and after the forgetting the person may remove it from the works they choose
// (redact-works.ts). Nothing in a work changes without that choice.
//
// What the card keeps, and for how long (the choice this feature rests on):
//  - The list: object ids, the version that contained the value at request time and where (NAME,
//    CONTENT). No names, no text: the card outlives the forgetting, and a name can itself contain
//    the value. Names are read live from the objects when the card is shown.
//  - The match key (`works.match`): a random 256-bit key and, per value, the HMAC-SHA256 of its
//    normalised word sequence under that key (domain/work-text.ts). Not the value, and nothing it
//    can be decrypted from: redaction needs only to *recognise* the value in a work's text, which
//    it does by hashing that text's word windows the same way. Forgetting clears
//    memory_versions.value, so this is taken at request time, while the values are still known.
//  - The key is wiped as soon as the person has chosen (redactWorks with the works to clean, or
//    with none to leave them as they are); after that the card holds only ids, versions and places.
//    Until then it is kept in the card only — a forgetting is often approved now and the works
//    looked at later. It is never exposed by the API (Approval.action omits `works`).
//  - Known limit: the key sits in the same row as the hashes, so someone who can read the database
//    could still test guesses of a short value against them until the person chooses; a
//    server-held pepper (not in the database) would close that and needs a configuration secret.
//    A card whose forgetting was declined keeps the key, but then the value is still remembered.
//  - A card with no works listed keeps no key at all.
import type { Approval } from '../../db/generated/client.ts';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { ObjectKind } from '../../domain/object-content.ts';
import { matchKeyOf, placesOf, type MatchKey, type WorkPlace } from '../../domain/work-text.ts';
import { currentVersionsPage } from '../../store/objects/withheld.ts';
import type { Deps } from '../deps.ts';

/** One work listed on a forget card. */
export type OfferedWork = {
  objectId: string;
  /** The version that contained the value when the card was filed. */
  version: number;
  where: WorkPlace[];
  /** Once cleaned: the new version without the value, and the earlier versions now withheld. */
  redactedInVersion?: number | null;
  withheldVersions?: number[];
};

/** The works part of a forget card's action. */
export type WorksOffer = {
  list: OfferedWork[];
  /** Until the person chooses (see above); never exposed. */
  match?: MatchKey;
  /** The person's choice: which of the listed works to clean (none = leave them all). */
  settled?: { at: string; byUserId: string; chosen: string[] };
};

const PAGE = 500;

/** The live works of a workspace whose current name or content contains a value of `mk`. */
export async function findWorks(db: Db, workspaceId: string, mk: MatchKey): Promise<OfferedWork[]> {
  const out: OfferedWork[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await currentVersionsPage(db, workspaceId, after, PAGE);
    for (const v of page) {
      const where = placesOf(v.kind as ObjectKind, v, mk);
      if (where.length) out.push({ objectId: v.object_id, version: v.version, where });
    }
    if (page.length < PAGE) return out;
    after = page[page.length - 1]!.object_id;
  }
}

/** What a forget card records about works, taken while the values are still known. */
export async function worksOfferFor(db: Db, workspaceId: string, values: string[]): Promise<WorksOffer> {
  const mk = matchKeyOf(values);
  if (!mk) return { list: [] };
  const list = await findWorks(db, workspaceId, mk);
  return list.length ? { list, match: mk } : { list: [] };
}

/** The works part of a card's action (an empty offer for any other card). */
export function offerOf(action: unknown): WorksOffer {
  const w = (action as { works?: WorksOffer } | null)?.works;
  return w && Array.isArray(w.list) ? w : { list: [] };
}

export const isForgetAction = (action: unknown): boolean => {
  const type = (action as { type?: unknown } | null)?.type;
  return type === 'FORGET_EVIDENCE' || type === 'FORGET_MEMORY';
};

/** A card's action as the API shows it: without the works part (listed on its own, typed). */
export function publicAction(action: unknown): unknown {
  if (!action || typeof action !== 'object' || !('works' in action)) return action;
  const { works: _works, ...rest } = action as Record<string, unknown>;
  return rest;
}

export type ForgetWorkView = {
  objectId: string;
  kind: ObjectKind;
  /** The work's name now (after cleaning, without the value). */
  name: string;
  version: number;
  where: WorkPlace[];
  status: 'OFFERED' | 'REDACTED' | 'KEPT';
  redactedInVersion: number | null;
  withheldVersions: number[];
};

/**
 * The works listed on a card, for a viewer who can see the card (its workspace's members). Works
 * deleted since are left out.
 */
export async function listForgetWorks(deps: Deps, _viewer: Viewer, approval: Approval): Promise<ForgetWorkView[]> {
  const offer = offerOf(approval.action);
  if (!offer.list.length) return [];
  const objects = await deps.prisma.workspaceObject.findMany({
    where: { id: { in: offer.list.map((w) => w.objectId) }, workspaceId: approval.workspaceId, deletedAt: null },
    select: { id: true, kind: true, name: true },
  });
  const byId = new Map(objects.map((o) => [o.id, o]));
  return offer.list.flatMap((w) => {
    const o = byId.get(w.objectId);
    if (!o) return [];
    const chosen = offer.settled?.chosen.includes(w.objectId) ?? false;
    return [
      {
        objectId: w.objectId,
        kind: o.kind as ObjectKind,
        name: o.name,
        version: w.version,
        where: w.where,
        status: !offer.settled ? 'OFFERED' : chosen ? 'REDACTED' : 'KEPT',
        redactedInVersion: w.redactedInVersion ?? null,
        withheldVersions: w.withheldVersions ?? [],
      } satisfies ForgetWorkView,
    ];
  });
}
