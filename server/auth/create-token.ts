// Issues a token for a member of a workspace. Scopes are those asked for; a VIEWER member only ever
// gets READ (the role caps the scopes at every request anyway, see auth/access.ts).
import { z } from 'zod';
import { generateToken } from './tokens.ts';
import type { PrismaClient } from '../db/client.ts';
import { notFound } from '../errors.ts';
import { parseInput } from '../services/validate.ts';

export const CreateTokenInput = z.object({
  workspaceId: z.string().uuid(),
  userId: z.string().uuid(),
  name: z.string().trim().min(1).max(100),
  scopes: z.array(z.enum(['READ', 'WRITE', 'APPROVE'])).min(1),
  expiresAt: z.date().optional(),
  /** SERVICE tokens (integrations) can never resolve approvals. */
  principal: z.enum(['HUMAN', 'SERVICE']).default('HUMAN'),
  /** Integrations confirm each paid action unless their policy says otherwise. */
  paidActions: z.enum(['CONFIRM_EACH', 'WORKSPACE_RULES']).optional(),
  /** For a web session: the token it was exchanged from (revoking that token ends the session). */
  parentTokenId: z.string().uuid().optional(),
});

export async function createToken(prisma: PrismaClient, raw: z.input<typeof CreateTokenInput>) {
  const input = parseInput(CreateTokenInput, raw);
  const m = await prisma.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: input.workspaceId, userId: input.userId } },
  });
  if (!m) throw notFound('Membership');
  const scopes = m.role === 'VIEWER' ? (['READ'] as const) : input.scopes;
  const t = generateToken();
  const row = await prisma.apiToken.create({
    data: {
      workspaceId: input.workspaceId,
      userId: input.userId,
      name: input.name,
      tokenHash: t.hash,
      prefix: t.prefix,
      scopes: [...new Set(['READ' as const, ...scopes])],
      expiresAt: input.expiresAt ?? null,
      principal: input.principal,
      paidActions: input.paidActions ?? (input.principal === 'SERVICE' ? 'CONFIRM_EACH' : 'WORKSPACE_RULES'),
      parentTokenId: input.parentTokenId ?? null,
    },
  });
  return { token: t.token, id: row.id, scopes: row.scopes };
}
