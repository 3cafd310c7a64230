// forgetEvidence / forgetMemory: irreversible, so they only ask. The approval's handler (registered
// in approvals/actions.ts) runs the forgetting in the approving transaction. The card also lists
// the person's works that contain a value being forgotten (works.ts: what it keeps and for how
// long); they are cleaned only if the person chooses to, after the forgetting (redact-works.ts).
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../../errors.ts';
import type { ApprovedActionHandler } from '../approvals/action-handler.ts';
import type { ApprovalReason } from '../../domain/approval-policy.ts';
import { factKind } from '../../domain/replies/facts.ts';
import { textsFor } from '../../domain/replies/texts.ts';
import { requestApproval } from '../../store/approvals/request-approval.ts';
import { latestLanguageOf } from '../../store/person-language.ts';
import { valuesOfMemory, valuesRestingOn } from '../../store/memory/forget-works.ts';
import { forgetEvidenceNow, forgetMemoryNow } from './forget.ts';
import { worksOfferFor, type WorksOffer } from './works.ts';

/** The card's reasons: irreversibility, and the works that contain the value (by count only). */
const reasonsWith = (reason: string, offer: WorksOffer, t: ReturnType<typeof textsFor>): ApprovalReason[] => [
  { code: 'IRREVERSIBLE', message: reason },
  ...(offer.list.length ? [{ code: 'WORKS_CONTAIN_VALUE' as const, message: t.forgetWorksReason(offer.list.length) }] : []),
];

export async function requestForgetEvidence(deps: Deps, viewer: Viewer, p: { evidenceId: string }) {
  const ev = await deps.prisma.memoryEvidence.findUnique({ where: { id: p.evidenceId } });
  // Only the person a source is about may forget it; anything else does not exist for the caller.
  if (!ev || ev.userId !== viewer.userId || !viewer.memberships.has(ev.workspaceId)) throw notFound('MemoryEvidence');
  requireWorkspace(viewer, ev.workspaceId, 'write');
  // No task here: the card speaks the language the person writes in.
  const t = textsFor(await latestLanguageOf(deps.prisma, ev.workspaceId, viewer.userId));
  // Taken now: forgetting clears the values. A repeated request finds the card filed first.
  const works = await worksOfferFor(deps.prisma, ev.workspaceId, await valuesRestingOn(deps.prisma, ev.id));
  const { value } = await transactWithEvents(deps, (tx, emit) =>
    requestApproval(tx, emit, {
      workspaceId: ev.workspaceId,
      taskId: null,
      kind: 'IRREVERSIBLE',
      requestKey: `forget-evidence:${ev.id}`,
      // No content in the title: the approval outlives the forgetting.
      title: t.forgetSourceTitle(ev.kind, ev.occurredAt),
      reasons: reasonsWith(t.forgetSourceReason, works, t),
      quoteCents: null,
      action: { type: 'FORGET_EVIDENCE', evidenceId: ev.id, ...(works.list.length ? { works } : {}) },
      requestedBy: { kind: 'USER', id: viewer.userId },
    }),
  );
  return value.approval;
}

export async function requestForgetMemory(deps: Deps, viewer: Viewer, p: { memoryId: string }) {
  const m = await deps.prisma.memory.findUnique({ where: { id: p.memoryId } });
  if (!m || !viewer.memberships.has(m.workspaceId) || (m.scope !== 'WORKSPACE' && m.userId !== viewer.userId)) throw notFound('Memory');
  requireWorkspace(viewer, m.workspaceId, 'write');
  const t = textsFor(await latestLanguageOf(deps.prisma, m.workspaceId, viewer.userId));
  const works = await worksOfferFor(deps.prisma, m.workspaceId, await valuesOfMemory(deps.prisma, m.id));
  const { value } = await transactWithEvents(deps, (tx, emit) =>
    requestApproval(tx, emit, {
      workspaceId: m.workspaceId,
      taskId: null,
      kind: 'IRREVERSIBLE',
      requestKey: `forget-memory:${m.id}`,
      title: t.forgetMemoryTitle(factKind(m.subjectKey), m.subjectKey),
      reasons: reasonsWith(t.forgetMemoryReason, works, t),
      quoteCents: null,
      action: { type: 'FORGET_MEMORY', memoryId: m.id, ...(works.list.length ? { works } : {}) },
      requestedBy: { kind: 'USER', id: viewer.userId },
    }),
  );
  return value.approval;
}

export const forgetEvidenceHandler: ApprovedActionHandler = async (action, ctx) => {
  const out = await forgetEvidenceNow(ctx.tx, { workspaceId: ctx.approval.workspaceId, evidenceId: String(action.evidenceId) });
  return { ...out };
};

export const forgetMemoryHandler: ApprovedActionHandler = async (action, ctx) => {
  const out = await forgetMemoryNow(ctx.tx, { workspaceId: ctx.approval.workspaceId, memoryId: String(action.memoryId) });
  return { ...out };
};
