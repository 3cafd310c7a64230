// Thread replies that repeat a forgotten value. The thread's own answers ("Remembered: Hamburg",
// "Noted — our brand colour is petrol") are the agent's words, not the person's: forgetting a value
// replaces every assistant reply of the workspace that names it as a whole word (case-insensitive),
// whatever message it answered. The person's own messages are chat history and stay.
import type { Tx } from '../../db/client.ts';

/** Escapes a value for a PostgreSQL regular expression. */
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces the workspace's assistant replies naming any of the values; returns how many. */
export async function withholdRepliesNaming(tx: Tx, p: { workspaceId: string; values: string[]; replacement: string }): Promise<number> {
  // Very short values ("a", "ok") would match everywhere: they are left to the source-based rule.
  const patterns = [...new Set(p.values.map((v) => v.trim()).filter((v) => v.length >= 3))].map((v) => `\\m${escapeRe(v)}\\M`);
  if (!patterns.length) return 0;
  return tx.$executeRawUnsafe(
    `UPDATE messages SET text = $3
      WHERE workspace_id = $1::uuid AND role = 'ASSISTANT' AND text <> $3
        AND text ~* ANY($2::text[])`,
    p.workspaceId,
    patterns,
    p.replacement,
  );
}
