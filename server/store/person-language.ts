// The language a person writes in, as the product already knows it: the detected language of
// their latest message in their main thread of a workspace (send-message stores it with the
// message). Cards a person asks for outside any task (deleting an object, forgetting a memory) are
// written in it; a person who has not written yet gets none (the caller falls back to English).
import type { Db } from '../db/client.ts';

/** ISO 639-1 code of the person's latest main-thread message with a detected language, or null. Invariant: only their own messages in this workspace count. */
export async function latestLanguageOf(db: Db, workspaceId: string, userId: string): Promise<string | null> {
  const m = await db.message.findFirst({
    where: { workspaceId, authorUserId: userId, role: 'USER', language: { not: null }, thread: { workspaceId, userId } },
    orderBy: { createdAt: 'desc' },
    select: { language: true },
  });
  return m?.language ?? null;
}
