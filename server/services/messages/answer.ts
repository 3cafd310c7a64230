// The main thread answering by itself (greetings, thanks, questions about the workspace). Offline it
// answers from the workspace's own data; it never pretends to be a model.
import type { Tx } from '../../db/client.ts';
import type { RouteDecision } from '../../routing/types.ts';

export async function answerInThread(
  tx: Tx,
  input: { workspaceId: string; threadId: string; messageId: string },
  d: RouteDecision,
) {
  let text = d.reply;
  if (!text) {
    const live = await tx.task.findMany({
      where: { workspaceId: input.workspaceId, archivedAt: null, kind: 'PERSISTENT', status: { in: ['QUEUED', 'RUNNING', 'WAITING', 'PAUSED'] } },
      orderBy: { lastActivityAt: 'desc' },
      take: 5,
      select: { title: true, status: true },
    });
    text = live.length
      ? `In progress: ${live.map((t) => `${t.title} (${t.status.toLowerCase()})`).join('; ')}.`
      : 'Nothing is in progress right now. Describe what you would like to make and I will start a task.';
  }
  return tx.message.create({
    data: { threadId: input.threadId, workspaceId: input.workspaceId, role: 'ASSISTANT', text, idempotencyKey: `reply:${input.messageId}` },
  });
}
