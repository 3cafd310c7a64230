// A person's decision on anything the API calls an approval (resolveApproval): a task's approval
// card is resolved (resolve-approval.ts); a question about a message of the person's main thread is
// answered by the option picked, which routes that message (../messages/answer-card.ts). PICK is
// APPROVE with a choice, said plainly; a question takes only a pick.
import type { Viewer } from '../../auth/viewer.ts';
import { badInput, notFound } from '../../errors.ts';
import { answerCard } from '../messages/answer-card.ts';
import type { Deps } from '../deps.ts';
import { isQuestion, loadApprovals, type ApprovalOrQuestion } from './load-approvals.ts';
import { resolveApproval } from './resolve-approval.ts';

export type Decision = {
  approvalId: string;
  decision: 'APPROVE' | 'REJECT' | 'PICK';
  choice?: string;
  note?: string;
  idempotencyKey: string;
};

export async function decide(deps: Deps, viewer: Viewer, input: Decision): Promise<ApprovalOrQuestion> {
  if (input.decision === 'PICK' && input.choice === undefined) throw badInput('PICK needs choice: the id of one of the options', { field: 'choice' });
  const [found] = await loadApprovals(deps, viewer, [input.approvalId]);
  if (found && isQuestion(found)) {
    if (input.decision === 'REJECT') throw badInput('A question is answered by picking one of its options (decision PICK with choice)', { field: 'decision' });
    if (input.choice === undefined) throw badInput('Pick one of the options to answer this question', { field: 'choice' });
    await answerCard(deps, viewer, { cardId: found.id, optionId: input.choice, idempotencyKey: input.idempotencyKey });
    const [answered] = await loadApprovals(deps, viewer, [found.id]);
    if (!answered) throw notFound('Approval');
    return answered;
  }
  // Approval cards of tasks (and ids of nothing visible, which resolveApproval refuses as NOT_FOUND).
  return resolveApproval(deps, viewer, {
    approvalId: input.approvalId,
    decision: input.decision === 'PICK' ? 'APPROVE' : input.decision,
    choice: input.choice,
    note: input.note,
    idempotencyKey: input.idempotencyKey,
  });
}
