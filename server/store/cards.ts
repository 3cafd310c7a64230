// Statements on the main thread's cards: a question with options about one message (which task is
// it for; continue a running task or start a new one), answered once.
import type { Tx } from '../db/client.ts';

/**
 * Locks a card's row (empty when it does not exist). Invariant: an answer reads the card's status
 * under this lock, so of two concurrent answers the second sees the first and a card is answered once.
 */
export function lockCard(tx: Tx, cardId: string): Promise<{ id: string }[]> {
  return tx.$queryRawUnsafe<{ id: string }[]>('SELECT id FROM cards WHERE id = $1::uuid FOR UPDATE', cardId);
}
