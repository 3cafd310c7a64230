// Writing to the main thread on behalf of the studio or a task: one reply per message (keyed
// `reply:<message id>`, so a retried send never answers twice; an answer to one of our cards gets a
// reply keyed by the card), and the cards the thread asks with.
import type { Viewer } from '../../../auth/viewer.ts';
import type { Emit } from '../../../channel/unit-of-work.ts';
import type { Prisma } from '../../../db/generated/client.ts';
import type { Tx } from '../../../db/client.ts';
import type { Deps } from '../../deps.ts';

/** What a reply is written with: the sending transaction and who sent the message. */
export type ThreadCtx = { deps: Deps; tx: Tx; emit: Emit; viewer: Viewer };
/** The stored message being answered. */
export type ThreadInput = { workspaceId: string; threadId: string; messageId: string; text: string };
/** What the thread did for a message: its reply, a card, the task it concerned. */
export type ThreadEffect = { replyId: string | null; cardId: string | null; taskId: string | null };

/** Card kinds the thread's own flows use (the clarification card is `CLARIFY`). */
export const CARD_CONFIRM_CANCEL = 'CONFIRM_CANCEL';
export const CARD_WHICH_TASK = 'WHICH_TASK';

export type CardOption = { id: string; label: string; action: 'continue' | 'create'; taskId: string | null; intent?: string };

/**
 * The reply to a message. `card`: the reply answers one of our cards raised by this message (a
 * second reply to the same message, keyed by the card).
 */
export async function writeReply(
  tx: Tx,
  input: ThreadInput,
  r: { text: string; language: string; taskId?: string | null; card?: { id: string } | null },
): Promise<{ id: string }> {
  return tx.message.create({
    data: {
      threadId: input.threadId,
      workspaceId: input.workspaceId,
      role: 'ASSISTANT',
      text: r.text.slice(0, 20_000),
      language: r.language,
      taskId: r.taskId ?? null,
      idempotencyKey: r.card ? `reply:${input.messageId}:${r.card.id}` : `reply:${input.messageId}`,
    },
    select: { id: true },
  });
}

export async function writeCard(tx: Tx, input: ThreadInput, c: { kind: string; prompt: string; options: CardOption[] }): Promise<{ id: string }> {
  return tx.card.create({
    data: {
      workspaceId: input.workspaceId,
      threadId: input.threadId,
      messageId: input.messageId,
      kind: c.kind,
      prompt: c.prompt.slice(0, 2000),
      options: c.options as unknown as Prisma.InputJsonValue,
    },
    select: { id: true },
  });
}

/** One of our cards about this message, open and being answered now (null when the message is new). */
export function openCardOf(tx: Tx, messageId: string): Promise<{ id: string; kind: string } | null> {
  return tx.card.findFirst({
    where: { messageId, status: 'OPEN', kind: { in: [CARD_CONFIRM_CANCEL, CARD_WHICH_TASK] } },
    orderBy: { createdAt: 'desc' },
    select: { id: true, kind: true },
  });
}
