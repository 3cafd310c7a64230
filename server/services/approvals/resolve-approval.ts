// A person's decision on an approval card. Only a human principal with the APPROVE scope (and a
// role that may approve) decides; the model has no tool for it, and nothing it writes counts. The
// decision is final and idempotent: the same idempotency key returns the recorded decision, a
// different decision on a resolved card is a CONFLICT. The decision, the approved action's effect
// (for irreversible actions) and the task's wake-up commit in one transaction.
import { vacuumAfterForgetting } from '../../store/sealing/vacuum.ts';
import { opened } from '../../store/sealing/open.ts';
import { z } from 'zod';
import { traced } from '../../runtime/telemetry.ts';
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import type { Deps } from '../deps.ts';
import type { Prisma } from '../../db/generated/client.ts';
import { badInput, conflict, ErrorReason, forbidden, notFound } from '../../errors.ts';
import { lockApproval } from '../../store/approvals/statements.ts';
import { ensureTurn } from '../../store/turns.ts';
import { applyTransition, lockTask } from '../../store/tasks/apply-transition.ts';
import { parseInput } from '../validate.ts';
import { checkIdempotencyKey, claimOf, recordIdempotencyKey } from '../../store/idempotency.ts';
import { approvedActionHandlers } from './actions.ts';
import { RAISE_CAP_ACTION, type RaiseCapAction } from '../../store/approvals/paid-action-gate.ts';
import { IMPACT_ACTION, settleImpact, type ImpactAction } from '../checklist/propagate-change.ts';

export const ResolveApprovalInput = z.object({
  approvalId: z.string().uuid(),
  decision: z.enum(['APPROVE', 'REJECT']),
  idempotencyKey: z.string().trim().min(1).max(200),
  note: z.string().trim().max(2000).optional(),
  /** For a checkpoint with options: the option chosen (required to approve a CHOOSE card). */
  choice: z.string().trim().min(1).max(60).optional(),
});

/** Resolves an approval inside a span (telemetry.ts; a no-op unless tracing is on). */
export async function resolveApproval(deps: Deps, viewer: Viewer, raw: z.input<typeof ResolveApprovalInput>) {
  return traced('approval.resolve', { 'atelier.approval': String((raw as { approvalId?: unknown }).approvalId ?? ''), 'atelier.policy.decision': String((raw as { decision?: unknown }).decision ?? '') }, async (span) => {
    const out = await resolveApprovalUntraced(deps, viewer, raw);
    // A forgetting just committed: reclaim the dead row versions that still hold what it removed
    // (store/sealing/vacuum.ts). Best effort, after the answer: autovacuum catches what this misses.
    const type = (out.action as { type?: unknown } | null)?.type;
    if (out.status === 'APPROVED' && (type === 'FORGET_EVIDENCE' || type === 'FORGET_MEMORY')) {
      vacuumAfterForgetting(deps.prisma).catch((e) => deps.log.warn('cleanup after forgetting failed; autovacuum will reclaim it', { error: String(e) }));
    }
    span.set({ 'atelier.approval.status': out.status, 'atelier.task': out.taskId ?? undefined });
    return out;
  });
}

async function resolveApprovalUntraced(deps: Deps, viewer: Viewer, raw: z.input<typeof ResolveApprovalInput>) {
  const input = parseInput(ResolveApprovalInput, raw);
  const found = await deps.prisma.approval.findUnique({ where: { id: input.approvalId }, select: { workspaceId: true } });
  if (!found) throw notFound('Approval');
  requireWorkspace(viewer, found.workspaceId, 'approve', 'Approval');
  if (viewer.principal !== 'HUMAN') throw forbidden('Only a person can resolve an approval; this credential belongs to an integration');
  const status = input.decision === 'APPROVE' ? 'APPROVED' : 'REJECTED';
  // The key names this decision: the same key with another decision, note or choice is refused.
  const claim = claimOf('resolveApproval', { workspaceId: found.workspaceId, userId: viewer.userId }, input)!;
  await checkIdempotencyKey(deps.prisma, claim);
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    // Task row first (the lock order of the event channel), then the approval row.
    const head = await tx.approval.findUniqueOrThrow({ where: { id: input.approvalId }, select: { taskId: true } });
    const task = head.taskId ? await lockTask(tx, head.taskId) : undefined;
    const rows = await lockApproval(tx, input.approvalId);
    if (!rows[0]) throw notFound('Approval');
    // A task's card may be sealed (store/sealing): its action and options are read opened.
    const approval = (await opened(tx, [await tx.approval.findUniqueOrThrow({ where: { id: input.approvalId } })]))[0]!;
    await recordIdempotencyKey(tx, claim);
    if (approval.status !== 'PENDING') {
      if (approval.resolveKey === input.idempotencyKey && approval.status === status) return approval; // a retry
      if (approval.status === 'SUPERSEDED') {
        // Final like any decision: the instruction that came first answered the card.
        throw conflict(`${approval.note ?? 'Set aside by your instruction'}; the task asks again with a new card if it still needs to`, {
          reason: ErrorReason.APPROVAL_SUPERSEDED,
          status: approval.status,
        });
      }
      throw conflict(`This approval was already ${approval.status.toLowerCase()}`, { status: approval.status });
    }
    const options = (approval.options as { id: string; label: string }[] | null) ?? [];
    if (input.choice !== undefined && !options.some((o) => o.id === input.choice)) {
      throw badInput(`choice must be one of: ${options.map((o) => o.id).join(', ') || '(this card has no options)'}`, { field: 'choice' });
    }
    if (status === 'APPROVED' && options.length && input.choice === undefined) throw badInput('Pick one of the options to approve this card', { field: 'choice' });
    let outcome: Record<string, unknown> | null = null;
    // Irreversible actions run their handler; so does a workspace checkpoint (no task) whose action
    // has one (an MCP server's quarantine card): approving it is what applies the change.
    const workspaceAction = approval.kind === 'CHECKPOINT' && !approval.taskId && !!approvedActionHandlers[(approval.action as { type?: string }).type ?? ''];
    if (status === 'APPROVED' && (approval.kind === 'IRREVERSIBLE' || workspaceAction)) {
      const action = approval.action as { type?: string } & Record<string, unknown>;
      const handler = approvedActionHandlers[action.type ?? ''];
      if (!handler) throw new Error(`no handler for approved action ${action.type}`);
      outcome = await handler(action, { tx, emit, deps, approval, userId: viewer.userId });
    }
    if (status === 'APPROVED' && approval.kind === 'PLAN' && approval.taskId) {
      // Approving a plan approves its budget: paid actions within it need no further card.
      const version = Number((approval.action as { version?: unknown }).version ?? 0) || null;
      await tx.task.update({ where: { id: approval.taskId }, data: { approvedBudgetCents: approval.quoteCents ?? 0, planApprovedVersion: version } });
    }
    // A task paused at its cap: approving raises the cap to what the card said (never lowers it);
    // the waiting call is replayed below and places its order once under the new cap.
    const raise = (approval.action as { type?: string }).type === RAISE_CAP_ACTION && approval.taskId ? (approval.action as RaiseCapAction) : null;
    if (raise && status === 'APPROVED' && approval.taskId) {
      const current = await tx.task.findUniqueOrThrow({ where: { id: approval.taskId }, select: { budgetCapCents: true } });
      if (current.budgetCapCents === null || current.budgetCapCents < raise.toCents) {
        await tx.task.update({ where: { id: approval.taskId }, data: { budgetCapCents: raise.toCents } });
        emit(approval.taskId, { type: 'TASK_LIMITS_CHANGED', actor: { kind: 'USER', id: viewer.userId }, payload: { budgetCapCents: raise.toCents, fromCents: raise.fromCents, approvalId: approval.id } });
      }
      outcome = { budgetCapCents: Math.max(current.budgetCapCents ?? 0, raise.toCents) };
    }
    // The impact card of a change: re-make the stale steps or keep them, with the decision.
    const impact = (approval.action as { type?: string }).type === IMPACT_ACTION && approval.taskId ? (approval.action as ImpactAction) : null;
    if (impact && approval.taskId) {
      outcome = { ...(await settleImpact(tx, emit, approval.taskId, impact, status === 'APPROVED', viewer.userId)) };
      // The card quoted the re-make: agreeing to it approves that much more budget, so its orders
      // need no second card.
      if (status === 'APPROVED' && approval.quoteCents) {
        await tx.task.updateMany({ where: { id: approval.taskId, approvedBudgetCents: { not: null } }, data: { approvedBudgetCents: { increment: approval.quoteCents } } });
      }
    }
    const updated = await tx.approval.update({
      where: { id: approval.id },
      data: {
        status,
        resolvedById: viewer.userId,
        resolveKey: input.idempotencyKey,
        note: input.note ?? null,
        choice: input.choice ?? null,
        resolvedAt: new Date(),
        ...(outcome ? { outcome: outcome as Prisma.InputJsonValue } : {}),
      },
    });
    if (approval.taskId && task) {
      emit(approval.taskId, {
        type: 'APPROVAL_RESOLVED',
        actor: { kind: 'USER', id: viewer.userId },
        payload: { approvalId: approval.id, kind: approval.kind, status, note: input.note ?? null, choice: input.choice ?? null, ...(outcome ? { outcome } : {}) },
      });
      if (approval.kind === 'CHECKPOINT' && !impact && !(approval.action as { toolCallId?: unknown }).toolCallId) {
        // A card the runtime added (the model only asked in prose): the answer reaches the next
        // step through the inbox, like a message.
        const chosen = options.find((o) => o.id === input.choice);
        await tx.inboxItem.create({
          data: {
            taskId: approval.taskId,
            workspaceId: approval.workspaceId,
            kind: 'MESSAGE',
            text: `${status === 'APPROVED' ? `Confirmed${chosen ? `: ${chosen.label}` : ''}` : 'Not like this'}${input.note ? ` — ${input.note}` : ''}`,
            authorUserId: viewer.userId,
            idempotencyKey: `approval:${approval.id}`,
          },
        });
      }
      if (task.status === 'WAITING') {
        // The waiting call (or the plan's next step) goes on; a rejection is reported to the model.
        await applyTransition(tx, emit, {
          taskId: approval.taskId,
          from: task.status,
          transition: 'requeue',
          actor: { kind: 'USER', id: viewer.userId },
          reason: status === 'APPROVED' ? 'approved' : 'declined',
        });
        await ensureTurn(tx, deps.scheduler, { id: approval.taskId, workspaceId: approval.workspaceId });
      }
    }
    return (await opened(tx, [updated]))[0]!;
  });
  return value;
}
