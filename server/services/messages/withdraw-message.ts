// Withdrawing or replacing a message the agent has not read yet. Delivered is not processed: once
// a step consumed the inbox item, the message can no longer be taken back (CONFLICT says which step
// read it). The task row is locked first, as the runtime's commit does, so a withdrawal and a step
// that would read the item are ordered.
import { z } from 'zod';
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import type { Deps } from '../deps.ts';
import { conflict, notFound } from '../../errors.ts';
import { lockTask } from '../../store/tasks/apply-transition.ts';
import { parseInput } from '../validate.ts';

export const WithdrawMessageInput = z.object({ messageId: z.string().uuid(), text: z.string().trim().min(1).max(20_000).optional() });

export async function withdrawOrReplaceMessage(deps: Deps, viewer: Viewer, raw: z.input<typeof WithdrawMessageInput>, mode: 'withdraw' | 'replace') {
  const input = parseInput(WithdrawMessageInput, raw);
  if (mode === 'replace' && !input.text) throw conflict('replaceMessage needs the new text');
  const message = await deps.prisma.message.findFirst({
    where: { id: input.messageId, thread: { userId: viewer.userId }, workspaceId: { in: [...viewer.memberships.keys()] } },
  });
  if (!message || message.role !== 'USER') throw notFound('Message');
  if (!viewer.scopes.has('WRITE') || viewer.memberships.get(message.workspaceId) === 'VIEWER') throw notFound('Message');
  if (!message.inboxItemId || !message.taskId) throw conflict('This message was not delivered to a task');
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    await lockTask(tx, message.taskId!);
    const item = await tx.inboxItem.findUniqueOrThrow({ where: { id: message.inboxItemId! } });
    if (item.withdrawnAt) throw conflict('This message was already withdrawn');
    if (item.consumedAt) {
      throw conflict(`The agent already read this message (step ${item.consumedStep})`, { consumedStep: item.consumedStep });
    }
    const actor = { kind: 'USER' as const, id: viewer.userId };
    if (mode === 'withdraw') {
      await tx.inboxItem.update({ where: { id: item.id }, data: { withdrawnAt: new Date() } });
      emit(message.taskId!, { type: 'MESSAGE_WITHDRAWN', actor, payload: { messageId: message.id } });
    } else {
      await tx.inboxItem.update({ where: { id: item.id }, data: { text: input.text! } });
      emit(message.taskId!, { type: 'MESSAGE_REPLACED', actor, payload: { messageId: message.id, previous: message.text, text: input.text } });
      return tx.message.update({ where: { id: message.id }, data: { text: input.text! } });
    }
    return tx.message.findUniqueOrThrow({ where: { id: message.id } });
  });
  return value;
}
