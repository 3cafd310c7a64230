// Revokes a token and every web session exchanged from it, in one statement. Authentication also
// checks a session's parent (auth/viewer.ts), so a session can never outlive its token even if
// this cascade were skipped; live WebSockets notice within one re-check interval (http/server.ts).
import type { PrismaClient } from '../db/client.ts';
import { hashToken } from './tokens.ts';
import { notFound } from '../errors.ts';

/** `token` is the secret itself or the prefix shown in token lists (at least 8 characters). */
export async function revokeToken(prisma: PrismaClient, token: string): Promise<{ revoked: number }> {
  const t = token.trim();
  const row = t.length > 20
    ? await prisma.apiToken.findUnique({ where: { tokenHash: hashToken(t) }, select: { id: true } })
    : t.length >= 8
      ? await prisma.apiToken.findFirst({ where: { prefix: { startsWith: t } }, select: { id: true } })
      : null;
  if (!row) throw notFound('Token');
  const now = new Date();
  const r = await prisma.apiToken.updateMany({
    where: { OR: [{ id: row.id }, { parentTokenId: row.id }], revokedAt: null },
    data: { revokedAt: now },
  });
  return { revoked: r.count };
}
