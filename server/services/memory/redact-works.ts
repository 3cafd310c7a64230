// redactWorks: after a forgetting was approved, the person who asked for it chooses which of the
// works its card lists get the forgotten value removed (works.ts says what the card keeps). One
// call is the choice, final like the card's decision: each chosen work gets a new version, by the
// person, with every occurrence of the value replaced by a neutral marker, and that version
// withholds the earlier versions that contained it (store/objects/withheld.ts) — readers see them
// as withheld, with the reason. Works not chosen stay exactly as they are. An empty choice leaves
// them all. Either way the card's match key is wiped in the same transaction, so afterwards it
// holds only object ids, versions and places.
//
// Idempotent: the idempotency key names the request (same key, same request → the recorded result;
// another request → IDEMPOTENCY_KEY_REUSED), and a repeated choice (same works) returns the card as
// it is, writing nothing; each work's new version is keyed by the card, so it is written once.
import { z } from 'zod';
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import type { ObjectKind } from '../../domain/object-content.ts';
import { textsFor } from '../../domain/replies/texts.ts';
import { mapContentText, placesOf, redactText, type MatchKey } from '../../domain/work-text.ts';
import { AppError, badInput, conflict, ErrorReason, notFound } from '../../errors.ts';
import { lockApproval } from '../../store/approvals/statements.ts';
import { checkIdempotencyKey, claimOf, recordIdempotencyKey } from '../../store/idempotency.ts';
import { setApprovalWorks } from '../../store/memory/forget-works.ts';
import { commitVersionTx } from '../../store/objects/store.ts';
import { emptyWithheldVersions, versionsOf, withheldOf } from '../../store/objects/withheld.ts';
import { latestLanguageOf } from '../../store/person-language.ts';
import type { Tx } from '../../db/client.ts';
import type { Emit } from '../../channel/unit-of-work.ts';
import type { Deps } from '../deps.ts';
import { parseInput } from '../validate.ts';
import { isForgetAction, offerOf, type OfferedWork, type WorksOffer } from './works.ts';

export const RedactWorksInput = z.object({
  approvalId: z.string().uuid(),
  objectIds: z.array(z.string().uuid()).max(500),
  idempotencyKey: z.string().trim().min(1).max(200),
});

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

export async function redactWorks(deps: Deps, viewer: Viewer, raw: z.input<typeof RedactWorksInput>) {
  const input = parseInput(RedactWorksInput, raw);
  const objectIds = [...new Set(input.objectIds.map((i) => i.toLowerCase()))].sort();
  const found = await deps.prisma.approval.findUnique({ where: { id: input.approvalId }, select: { workspaceId: true, action: true, requestedById: true } });
  if (!found || !viewer.memberships.has(found.workspaceId)) throw notFound('Approval');
  requireWorkspace(viewer, found.workspaceId, 'write', 'Approval');
  if (!isForgetAction(found.action)) throw badInput('Works can be cleaned only from the card of a forgetting', { reason: ErrorReason.NOT_A_FORGET_CARD });
  if (viewer.principal !== 'HUMAN' || found.requestedById !== viewer.userId) {
    throw new AppError('FORBIDDEN', 'Only the person who asked to forget chooses which works to clean', { reason: ErrorReason.NOT_YOUR_FORGET_CARD });
  }
  const claim = claimOf('redactWorks', { workspaceId: found.workspaceId, userId: viewer.userId }, { ...input, objectIds })!;
  await checkIdempotencyKey(deps.prisma, claim);
  const t = textsFor(await latestLanguageOf(deps.prisma, found.workspaceId, viewer.userId));
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    if (!(await lockApproval(tx, input.approvalId))[0]) throw notFound('Approval');
    const card = await tx.approval.findUniqueOrThrow({ where: { id: input.approvalId } });
    await recordIdempotencyKey(tx, claim);
    if (card.status !== 'APPROVED') {
      throw conflict(`The forgetting was ${card.status === 'PENDING' ? 'not decided yet' : card.status.toLowerCase()}: works are cleaned only after it is approved`, {
        reason: ErrorReason.FORGET_NOT_APPROVED,
        status: card.status,
      });
    }
    const offer = offerOf(card.action);
    const listed = new Set(offer.list.map((w) => w.objectId));
    const unknown = objectIds.filter((id) => !listed.has(id));
    if (unknown.length) throw badInput('Some of these works are not listed on the card', { reason: ErrorReason.WORK_NOT_LISTED, objectIds: unknown });
    if (offer.settled) {
      // The choice was made: the same choice again is a retry and changes nothing.
      if (sameSet(offer.settled.chosen, objectIds)) return card;
      throw conflict('You already chose which works to clean on this card', { reason: ErrorReason.WORKS_ALREADY_CHOSEN, chosen: offer.settled.chosen });
    }
    const list: OfferedWork[] = [];
    for (const w of offer.list) {
      if (!objectIds.includes(w.objectId) || !offer.match) list.push(w);
      else list.push({ ...w, ...(await redactOne(tx, emit, { card, objectId: w.objectId, mk: offer.match, userId: viewer.userId, t })) });
    }
    // The choice, and no match key any more.
    const settled: WorksOffer = { list, settled: { at: new Date().toISOString(), byUserId: viewer.userId, chosen: objectIds } };
    await setApprovalWorks(tx, card.id, settled);
    return tx.approval.findUniqueOrThrow({ where: { id: card.id } });
  });
  return value;
}

/**
 * Cleans one work: a new version without the value (written only when the work, or an earlier
 * version of it, still contains it), which withholds every version up to the current one that
 * contained it. A work deleted since is left as it is (deleted works are read-only).
 */
async function redactOne(
  tx: Tx,
  emit: Emit,
  a: { card: { id: string; workspaceId: string }; objectId: string; mk: MatchKey; userId: string; t: ReturnType<typeof textsFor> },
): Promise<Pick<OfferedWork, 'redactedInVersion' | 'withheldVersions'>> {
  const obj = await tx.workspaceObject.findFirst({ where: { id: a.objectId, workspaceId: a.card.workspaceId }, select: { kind: true, deletedAt: true } });
  if (!obj || obj.deletedAt) return { redactedInVersion: null, withheldVersions: [] };
  const kind = obj.kind as ObjectKind;
  let withheld: number[] = [];
  const r = await commitVersionTx(tx, emit, {
    workspaceId: a.card.workspaceId,
    objectId: a.objectId,
    actor: { kind: 'USER', userId: a.userId },
    idempotencyKey: `forget-works:${a.card.id}`,
    build: async (locked, current) => {
      const already = (await withheldOf(tx, [locked.id])).get(locked.id);
      withheld = (await versionsOf(tx, locked.id))
        .filter((v) => v.version <= current.version && !already?.has(v.version) && placesOf(kind, v, a.mk).length > 0)
        .map((v) => v.version);
      if (!withheld.length) throw new NothingToClean();
      const marker = a.t.worksRemovedMarker;
      return {
        name: redactText(current.name, a.mk, marker),
        content: mapContentText(kind, current.content, (s) => redactText(s, a.mk, marker)),
        withheld: { versions: withheld, reason: 'FORGOTTEN_VALUE', message: a.t.worksWithheldMessage, label: a.t.worksWithheldLabel },
        summary: a.t.worksRedactedSummary,
      };
    },
  }).catch((e: unknown) => {
    if (e instanceof NothingToClean) return null;
    throw e;
  });
  if (r) await emptyWithheldVersions(tx, a.objectId, withheld, { kind, reason: 'FORGOTTEN_VALUE', message: a.t.worksWithheldMessage, label: a.t.worksWithheldLabel });
  return { redactedInVersion: r?.version ?? null, withheldVersions: withheld };
}

/** Thrown out of a version's build to write nothing (the work no longer contains the value anywhere). */
class NothingToClean extends Error {}
